import SendIcon from '@mui/icons-material/Send';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import {
  BooleanInput,
  Form,
  maxValue,
  minValue,
  required,
  SelectInput,
  TextInput,
  useCanAccess,
  useGetList,
  useNotify,
  useTranslate,
  type Validator,
} from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import { DANGEROUS_BUILT_INS } from '../../../shared/controllers/command-wire';
import { DecimalInput } from '../kit/DecimalInput';
import { messageOf } from '../trpc';
import { fieldErrorsOf, newCommandId, useSendCommand, type TDeclaredCommand } from './api';
import { kindLabel, useCommandRunner } from './useCommandRunner';
import { ownEntry } from '../../../shared/common/own-entry';

/** The commands a controller takes in the send form: restart, set_parameter and the declared ones (apply_config has its own button). */
interface KindChoice {
  id: string;
  name: string;
  dangerous: boolean;
  declared?: TDeclaredCommand;
}

export function kindChoices(declared: TDeclaredCommand[], translate: (k: string, o?: Record<string, unknown>) => string): KindChoice[] {
  const mark = (name: string, dangerous: boolean) => (dangerous ? `${name} ⚠ ${translate('portal.control.dangerous')}` : name);
  return [
    { id: 'set_parameter', name: kindLabel('set_parameter', translate), dangerous: false },
    { id: 'restart', name: mark(kindLabel('restart', translate), true), dangerous: DANGEROUS_BUILT_INS.includes('restart') },
    ...declared.map((c) => ({ id: c.name, name: mark(kindLabel(c.name, translate, c.label), c.dangerous), dangerous: c.dangerous === true, declared: c })),
  ];
}

type Values = { kind?: string; entity_cuid?: string; parameter_id?: string; value?: number | string | null; reason?: string; args?: Record<string, unknown> };

/** The payload of the chosen kind from the form's values. */
export function payloadOf(values: Values, declared?: TDeclaredCommand): Record<string, unknown> {
  if (values.kind === 'set_parameter') return { entity_cuid: values.entity_cuid, parameter_id: values.parameter_id, value: values.value };
  if (values.kind === 'restart') return values.reason?.trim() ? { reason: values.reason.trim() } : {};
  const out: Record<string, unknown> = {};
  for (const arg of declared?.args ?? []) {
    const v = ownEntry(values.args, arg.name);
    if (v === undefined || v === null || v === '') continue;
    out[arg.name] = v;
  }
  return out;
}

function SetParameterFields({ controllerId }: { controllerId: string }) {
  const entityCuid = useWatch({ name: 'entity_cuid' }) as string | undefined;
  const { setValue } = useFormContext();
  const devices = useGetList<{ id: string; name: string; entitytype_id: string }>('entity', {
    filter: { controller_id: controllerId },
    sort: { field: 'name', order: 'ASC' },
    pagination: { page: 1, perPage: 200 },
  });
  const device = devices.data?.find((d) => d.id === entityCuid);
  const params = useGetList<{ id: string; parameter_id: string }>(
    'entityTypeLogParameterAssignment',
    { filter: { entitytype_id: device?.entitytype_id }, sort: { field: 'parameter_id', order: 'ASC' }, pagination: { page: 1, perPage: 200 } },
    { enabled: Boolean(device) },
  );
  return (
    <>
      <SelectInput
        source="entity_cuid"
        label="portal.control.send.device"
        choices={devices.data ?? []}
        isPending={devices.isPending}
        validate={required()}
        onChange={() => setValue('parameter_id', null)}
        fullWidth
      />
      <SelectInput
        source="parameter_id"
        label="portal.control.send.parameter"
        choices={(params.data ?? []).map((p) => ({ id: p.parameter_id, name: p.parameter_id }))}
        disabled={!device}
        validate={required()}
        fullWidth
      />
      <DecimalInput source="value" label="portal.control.send.value" validate={required()} />
    </>
  );
}

function DeclaredFields({ command }: { command: TDeclaredCommand }) {
  const translate = useTranslate();
  return (
    <>
      {command.description && (
        <Alert severity="info" sx={{ mb: 1 }}>
          {command.description}
        </Alert>
      )}
      {command.args.map((arg) => {
        const source = `args.${arg.name}`;
        const label = arg.label || arg.name;
        const validate: Validator[] = [];
        if (arg.required) validate.push(required());
        if (arg.type === 'number') {
          if (arg.min !== undefined) validate.push(minValue(arg.min));
          if (arg.max !== undefined) validate.push(maxValue(arg.max));
          return <DecimalInput key={arg.name} source={source} label={label} validate={validate} />;
        }
        if (arg.type === 'boolean') return <BooleanInput key={arg.name} source={source} label={label} />;
        if (arg.choices?.length)
          return (
            <SelectInput key={arg.name} source={source} label={label} choices={arg.choices.map((c) => ({ id: c, name: c }))} validate={validate} fullWidth />
          );
        return <TextInput key={arg.name} source={source} label={label} validate={validate} fullWidth />;
      })}
      {command.args.length === 0 && <span>{translate('portal.control.send.no_args')}</span>}
    </>
  );
}

function KindFields({ controllerId, choices }: { controllerId: string; choices: KindChoice[] }) {
  const translate = useTranslate();
  const kind = useWatch({ name: 'kind' }) as string | undefined;
  const chosen = choices.find((c) => c.id === kind);
  return (
    <>
      <SelectInput source="kind" label="portal.control.send.kind" choices={choices} validate={required()} fullWidth autoFocus />
      {chosen?.dangerous && (
        <Alert severity="warning" sx={{ mb: 1 }} data-testid="send-dangerous">
          {translate('portal.control.send.dangerous_help')}
        </Alert>
      )}
      {kind === 'set_parameter' && <SetParameterFields controllerId={controllerId} />}
      {kind === 'restart' && <TextInput source="reason" label="portal.control.send.reason" multiline fullWidth />}
      {chosen?.declared && <DeclaredFields command={chosen.declared} />}
    </>
  );
}

/**
 * "Send command" (controllers.configure, level ≤ 1): restart, set a device's parameter, or a
 * command the controller type declares. The command id is made when the dialog opens and kept for
 * its retries and its step-up, so one request never runs twice.
 */
export function SendCommandButton({ controllerId, declared }: { controllerId: string; declared: TDeclaredCommand[] }) {
  const translate = useTranslate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const { canAccess } = useCanAccess({ resource: 'controllerCommand', action: 'send' });
  const { run, dialog } = useCommandRunner();
  const send = useSendCommand();
  const [open, setOpen] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const commandId = useRef<string>('');
  const titleId = useId();
  if (!canAccess) return null;
  const choices = kindChoices(declared, translate);

  const openDialog = () => {
    commandId.current = newCommandId();
    setFailure(null);
    setOpen(true);
  };

  const submit = async (values: Values) => {
    const choice = choices.find((c) => c.id === values.kind);
    if (!choice) return undefined;
    setFailure(null);
    const payload = payloadOf(values, choice.declared);
    try {
      const record = await run((password) =>
        send.mutateAsync({ controller_id: controllerId, kind: choice.id, payload, id: commandId.current, ...(password ? { password } : {}) }),
      );
      if (!record) return undefined; // step-up cancelled: nothing sent, the dialog stays
      setOpen(false);
      await queryClient.invalidateQueries({ queryKey: ['controllerCommand'] });
      return undefined;
    } catch (error) {
      const fields = fieldErrorsOf(error);
      const errors: Record<string, unknown> = {};
      for (const [path, message] of Object.entries(fields)) {
        const field = path.replace(/^payload\./, choice.declared ? 'args.' : '');
        errors[field] = message;
      }
      setFailure(messageOf(error));
      if (!Object.keys(fields).length) notify('portal.control.send.failed', { type: 'error', messageArgs: { message: messageOf(error) } });
      return Object.keys(errors).length ? errors : undefined;
    }
  };

  return (
    <>
      <Button variant="contained" startIcon={<SendIcon />} onClick={openDialog} data-testid="send-command">
        {translate('portal.control.send.button')}
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} aria-labelledby={titleId} fullWidth maxWidth="sm" data-testid="send-dialog">
        <Form onSubmit={submit as never} record={{}} noValidate>
          <DialogTitle id={titleId}>{translate('portal.control.send.title')}</DialogTitle>
          <DialogContent>
            <KindFields controllerId={controllerId} choices={choices} />
            {failure && (
              <Alert severity="error" data-testid="send-error">
                {failure}
              </Alert>
            )}
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setOpen(false)}>{translate('ra.action.cancel')}</Button>
            <SubmitButton />
          </DialogActions>
        </Form>
      </Dialog>
      {dialog}
    </>
  );
}

function SubmitButton() {
  const translate = useTranslate();
  const { formState } = useFormContext();
  return (
    <Button type="submit" variant="contained" disabled={formState.isSubmitting} data-testid="send-submit">
      {translate('portal.control.send.submit')}
    </Button>
  );
}
