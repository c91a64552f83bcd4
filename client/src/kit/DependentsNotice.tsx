import { Alert, CircularProgress, List, ListItem, Stack, Typography } from '@mui/material';
import { type Identifier, useTranslate } from 'react-admin';
import { useDependents } from './api';

/**
 * What deleting these records does to what depends on them, for a delete confirmation: "This
 * cannot be undone" and the server's sentence ("Deleting it will also delete 3 systems …", "It
 * cannot be deleted while it has 2 devices"), each kind with its count and fate.
 */
export function DependentsNotice({ resource, ids, plain }: { resource: string; ids: Identifier[]; plain: string }) {
  const translate = useTranslate();
  const query = useDependents(resource, ids);
  const answer = query.data;
  return (
    <Stack spacing={1} data-testid="dependents-notice">
      <Typography>{translate(plain)}</Typography>
      {query.isFetching && !answer ? (
        <Stack direction="row" spacing={1} alignItems="center">
          <CircularProgress size={16} />
          <Typography variant="body2">{translate('portal.kit.dependents.checking')}</Typography>
        </Stack>
      ) : null}
      {answer?.deletable ? (
        <Alert
          severity={answer.blocked ? 'error' : answer.dependents.some((d) => d.action === 'delete') ? 'warning' : 'info'}
          data-testid="dependents-message"
          data-blocked={answer.blocked ? 'true' : 'false'}
        >
          {answer.message}
          {answer.dependents.length > 1 ? (
            <List dense disablePadding>
              {answer.dependents.map((d) => (
                <ListItem key={`${d.action}:${d.kind}`} disableGutters sx={{ py: 0 }}>
                  {translate(`portal.kit.dependents.${d.action}`, { label: d.label })}
                </ListItem>
              ))}
            </List>
          ) : null}
        </Alert>
      ) : null}
      {query.isError ? <Typography variant="body2">{translate('portal.kit.dependents.unknown')}</Typography> : null}
    </Stack>
  );
}
