import { Box, Tab, Tabs, Typography } from '@mui/material';
import { useId, useState } from 'react';
import { TextInput, type TextInputProps, useTranslate } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { MarkdownView } from './MarkdownField';

/**
 * Markdown edited as text with a Preview tab: `<MarkdownInput source="content" />`. The preview
 * is MarkdownView (raw HTML stays text, links only http(s)/mailto). Tabs follow the WAI-ARIA
 * pattern (arrow keys between tabs, Tab into the panel).
 */
export function MarkdownInput(props: TextInputProps & { minRows?: number }) {
  const { minRows = 12, ...rest } = props;
  const translate = useTranslate();
  const [tab, setTab] = useState<'write' | 'preview'>('write');
  const value = useWatch({ name: props.source }) as string | null | undefined;
  const base = useId();
  return (
    <Box sx={{ width: '100%' }} data-testid={`markdown-input-${props.source}`}>
      <Tabs
        value={tab}
        onChange={(_e, v: 'write' | 'preview') => setTab(v)}
        aria-label={translate('portal.kit.markdown.write', { _: 'Write' })}
        sx={{ minHeight: 36 }}
      >
        <Tab
          value="write"
          label={translate('portal.kit.markdown.write', { _: 'Write' })}
          id={`${base}-write`}
          aria-controls={`${base}-write-panel`}
          sx={{ minHeight: 36 }}
        />
        <Tab
          value="preview"
          label={translate('portal.kit.markdown.preview', { _: 'Preview' })}
          id={`${base}-preview`}
          aria-controls={`${base}-preview-panel`}
          sx={{ minHeight: 36 }}
        />
      </Tabs>
      {/* The text input stays mounted (hidden) so its value and validation live on. */}
      <Box role="tabpanel" id={`${base}-write-panel`} aria-labelledby={`${base}-write`} hidden={tab !== 'write'}>
        <TextInput
          {...rest}
          multiline
          minRows={minRows}
          fullWidth
          slotProps={{ htmlInput: { spellCheck: true, style: { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: 13 } } }}
        />
      </Box>
      <Box
        role="tabpanel"
        id={`${base}-preview-panel`}
        aria-labelledby={`${base}-preview`}
        hidden={tab !== 'preview'}
        tabIndex={0}
        sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 2, minHeight: 120, mb: 2 }}
        data-testid="markdown-preview"
      >
        {tab === 'preview' ? (
          value && value.trim() ? (
            <MarkdownView text={value} />
          ) : (
            <Typography color="text.secondary">{translate('portal.kit.markdown.empty', { _: 'Nothing to preview.' })}</Typography>
          )
        ) : null}
      </Box>
    </Box>
  );
}
