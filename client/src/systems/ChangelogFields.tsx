import { TextField } from '@mui/material';
import { useTranslate } from 'react-admin';

/** The title and message of a changelog entry, as the add form and the edit dialog show them. */
export function ChangelogFields({
  title,
  message,
  onTitle,
  onMessage,
  testIdPrefix,
}: {
  title: string;
  message: string;
  onTitle: (value: string) => void;
  onMessage: (value: string) => void;
  /** `changelog` (add form) or `changelog-edit` (edit dialog): the fields' data-testid prefix. */
  testIdPrefix: string;
}) {
  const translate = useTranslate();
  return (
    <>
      <TextField
        label={translate('portal.system.changelog_title')}
        value={title}
        onChange={(e) => onTitle(e.target.value)}
        required
        size="small"
        slotProps={{ htmlInput: { maxLength: 200, 'data-testid': `${testIdPrefix}-title` } }}
      />
      <TextField
        label={translate('portal.system.changelog_message')}
        value={message}
        onChange={(e) => onMessage(e.target.value)}
        multiline
        minRows={2}
        size="small"
        slotProps={{ htmlInput: { maxLength: 10_000, 'data-testid': `${testIdPrefix}-message` } }}
      />
    </>
  );
}
