import { TextInput, useResourceContext, useTranslate } from 'react-admin';

/**
 * The French of a catalogue or template text, next to its English input: edits
 * `translations.fr.<source>` (the server's `{ "fr": { "<field>": "text" } }`). An empty input
 * means no French (the English shows); the server drops empty texts.
 */
export function FrenchInput({ source, multiline, label }: { source: string; multiline?: boolean; label?: string }) {
  const translate = useTranslate();
  const resource = useResourceContext();
  const field = label ? translate(label, { _: label }) : translate(`resources.${resource}.fields.${source}`, { _: source });
  return (
    <TextInput
      source={`translations.fr.${source}`}
      label={translate('portal.kit.french.label', { field })}
      helperText="portal.kit.french.helper"
      multiline={multiline}
      // An untouched input is '' (an undefined member is no JSON: the server would refuse it);
      // '' and null are no text there.
      defaultValue=""
      parse={(v: string) => v ?? ''}
      inputProps={{ lang: 'fr' }}
    />
  );
}
