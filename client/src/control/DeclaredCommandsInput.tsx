import { ArrayInput, BooleanInput, maxLength, required, SelectInput, SimpleFormIterator, TextInput, useTranslate } from 'react-admin';
import { COMMAND_NAME_PATTERN } from '../../../shared/controllers/command-wire';
import { DecimalInput } from '../kit/DecimalInput';
import { matches } from '../kit/validators';

const F = 'resources.controllerType.fields.commands';
const validName = [required(), matches(COMMAND_NAME_PATTERN, 'portal.catalogue.command_name_pattern')];

/** Allowed values of a text argument: one per line in the form, a list in the record. */
const choicesFormat = (v: unknown) => (Array.isArray(v) ? v.join('\n') : '');
const choicesParse = (v: string) => {
  const list = v
    .split('\n')
    .map((s) => s.trim())
    .filter(Boolean);
  return list.length ? list : undefined;
};

/**
 * The commands a controller type declares (ZDeclaredCommands), as a form: name, label,
 * description, dangerous, and arguments with name, type, required, min / max, allowed values.
 */
export function DeclaredCommandsInput() {
  const translate = useTranslate();
  const argTypes = (['number', 'string', 'boolean'] as const).map((id) => ({ id, name: translate(`portal.control.types.arg_types.${id}`) }));
  return (
    <ArrayInput source="commands" label={F} helperText="portal.control.types.commands_help">
      <SimpleFormIterator inline={false} disableReordering>
        <TextInput source="name" label={`${F}.name`} validate={validName} />
        <TextInput source="label" label={`${F}.label`} validate={maxLength(200)} />
        <TextInput source="description" label={`${F}.description`} multiline validate={maxLength(2000)} />
        <BooleanInput source="dangerous" label={`${F}.dangerous`} defaultValue={false} />
        <ArrayInput source="args" label={`${F}.args`}>
          <SimpleFormIterator inline disableReordering>
            <TextInput source="name" label={`${F}.args.name`} validate={validName} />
            <TextInput source="label" label={`${F}.args.label`} validate={maxLength(200)} />
            <SelectInput source="type" label={`${F}.args.type`} choices={argTypes} validate={required()} defaultValue="number" />
            <BooleanInput source="required" label={`${F}.args.required`} defaultValue={false} />
            <DecimalInput source="min" label={`${F}.args.min`} />
            <DecimalInput source="max" label={`${F}.args.max`} />
            <TextInput source="choices" label={`${F}.args.choices`} multiline format={choicesFormat} parse={choicesParse} />
          </SimpleFormIterator>
        </ArrayInput>
      </SimpleFormIterator>
    </ArrayInput>
  );
}

/** Empty optional fields out of the declaration before it is saved (the server takes no nulls there). */
export function cleanCommands<T extends { commands?: unknown }>(data: T): T {
  if (!Array.isArray(data.commands)) return data;
  const clean = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined && v !== ''));
  return {
    ...data,
    commands: data.commands.map((c: Record<string, unknown>) => ({
      ...clean(c),
      args: Array.isArray(c.args) ? c.args.map((a: Record<string, unknown>) => clean(a)) : [],
    })),
  };
}
