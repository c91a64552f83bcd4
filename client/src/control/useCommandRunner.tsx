import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { type FormEvent, type ReactElement, useId, useState } from 'react';
import { useTranslate } from 'react-admin';
import type { TToast } from '../../../server/src/alerts/portal/portal.schema';
import type { Translate } from '../i18n/translate';
import { useToasts } from '../toasts/ToastProvider';
import { commandsTabOf, fieldErrorsOf, needsStepUp, useInvalidateCommandData, type TCommandRecord } from './api';
import { commandActionResponse } from '../../../shared/common/enums';

/**
 * How long the grey PENDING toast stays when no answer comes: the server's default ack timeout
 * (COMMAND_ACK_TIMEOUT_SECONDS, 30 s); the answer (SUCCESS / FAILURE, also for TIMEOUT / EXPIRED)
 * replaces it whenever it comes.
 */
export const PENDING_TOAST_MS = 30_000;

/** A command's name as people read it: built-ins translated, declared ones by their label. */
export function kindLabel(kind: string, translate: Translate, label?: string): string {
  if (label) return label;
  const key = `portal.control.kinds.${kind}`;
  const text = translate(key, { _: kind });
  return text === key ? kind : text;
}

/** The ACTION_RESPONSE toast of a command record (id = command_id, so the live answer replaces it). */
export function commandToast(record: TCommandRecord, translate: Translate): TToast {
  const status = record.status;
  const actionResponse = commandActionResponse(status);
  const kind = kindLabel(record.kind, translate);
  const controller = record.controller_name ?? record.controller_id;
  return {
    id: record.command_id,
    type: 'ACTION_RESPONSE',
    actionResponse,
    severity: actionResponse === 'FAILURE' ? 'ERROR' : 'INFO',
    title: translate(`portal.control.toast.${actionResponse}`, { kind, controller }),
    message: record.message ?? translate(`portal.control.status_text.${status}`),
    triggeredAt: { timestamp: new Date(record.requested_at), timezone: Intl.DateTimeFormat().resolvedOptions().timeZone },
    onClickTarget: commandsTabOf(record.controller_id),
    command: { command_id: record.command_id, controller_id: record.controller_id, status },
  };
}

interface StepUp {
  submit(password: string): Promise<void>;
  cancel(): void;
  error?: string;
  busy?: boolean;
}

/**
 * Runs a command call (send or apply) for the requester: the PENDING toast at once (and the
 * controller's command list and configuration invalidated through the query client), and the
 * step-up when the server asks for the password again (PRECONDITION_FAILED with data.stepUp): a
 * dialog asks for it and the SAME call (same command id) goes again with it. A wrong password is
 * shown in the dialog; Cancel sends nothing and resolves undefined. Other failures reject.
 */
export function useCommandRunner(): {
  run: (call: (password?: string) => Promise<TCommandRecord>) => Promise<TCommandRecord | undefined>;
  dialog: ReactElement;
} {
  const store = useToasts();
  const translate = useTranslate();
  const invalidateCommandData = useInvalidateCommandData();
  const [stepUp, setStepUp] = useState<StepUp | null>(null);

  const announce = (record: TCommandRecord) => {
    const toast = commandToast(record, translate);
    store.upsert(toast, toast.actionResponse === 'PENDING' ? { duration: PENDING_TOAST_MS } : {});
    void invalidateCommandData(record.controller_id);
  };

  const run = async (call: (password?: string) => Promise<TCommandRecord>): Promise<TCommandRecord | undefined> => {
    try {
      const record = await call();
      announce(record);
      return record;
    } catch (error) {
      if (!needsStepUp(error)) throw error;
    }
    return new Promise<TCommandRecord | undefined>((resolve, reject) => {
      setStepUp({
        cancel: () => {
          setStepUp(null);
          resolve(undefined);
        },
        submit: async (password: string) => {
          setStepUp((s) => s && { ...s, busy: true, error: undefined });
          try {
            const record = await call(password);
            setStepUp(null);
            announce(record);
            resolve(record);
          } catch (error) {
            const wrong = fieldErrorsOf(error).password;
            if (wrong) {
              setStepUp((s) => s && { ...s, busy: false, error: wrong });
              return;
            }
            setStepUp(null);
            reject(error);
          }
        },
      });
    });
  };

  return { run, dialog: <StepUpDialog state={stepUp} /> };
}

function StepUpDialog({ state }: { state: StepUp | null }) {
  const translate = useTranslate();
  const [password, setPassword] = useState('');
  const titleId = useId();
  const open = state !== null;
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (state && password && !state.busy) void state.submit(password);
  };
  return (
    <Dialog
      open={open}
      onClose={() => state?.cancel()}
      aria-labelledby={titleId}
      data-testid="step-up-dialog"
      TransitionProps={{ onExited: () => setPassword('') }}
    >
      <form onSubmit={onSubmit} noValidate>
        <DialogTitle id={titleId}>{translate('portal.control.step_up.title')}</DialogTitle>
        <DialogContent>
          <DialogContentText>{translate('portal.control.step_up.text')}</DialogContentText>
          <TextField
            autoFocus
            fullWidth
            margin="dense"
            type="password"
            name="password"
            autoComplete="current-password"
            label={translate('portal.control.step_up.password')}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            error={Boolean(state?.error)}
            helperText={state?.error ?? ' '}
            slotProps={{ htmlInput: { 'data-testid': 'step-up-password' } }}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => state?.cancel()}>{translate('ra.action.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={!password || state?.busy} data-testid="step-up-confirm">
            {translate('portal.control.step_up.confirm')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
