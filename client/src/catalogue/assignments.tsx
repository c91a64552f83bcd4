import { FrenchInput } from '../kit/FrenchInput';
import { DateField } from '../kit/fields';
import AddIcon from '@mui/icons-material/Add';
import { Box, Button as MuiButton, Dialog, DialogActions, DialogContent, DialogTitle, Stack, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  AutocompleteInput,
  CreateBase,
  DeleteButton,
  EditBase,
  Form,
  type Identifier,
  type RaRecord,
  ReferenceField,
  ReferenceInput,
  ReferenceManyField,
  SaveButton,
  SelectField,
  SelectInput,
  SimpleForm,
  TextField,
  TextInput,
  required,
  useCanAccess,
  useCreateSuggestionContext,
  useNotify,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { ResponsiveDataTable as DataTable } from '../kit/ResponsiveDataTable';
import { JsonText, LOG_PARAMETER_TYPE_CHOICES, UnitInput } from './common';
import { JsonInput, jsonObject } from '../kit/JsonInput';

/**
 * "Create <typed id>" from the log-parameter autocomplete: a small dialog (id, description, unit,
 * type); the new parameter becomes the autocomplete's choice. Its own form is portalled out of the
 * outer form in the DOM, and its submit event is stopped before it bubbles to the outer form.
 */
function QuickLogParameter() {
  const { filter, onCancel, onCreate } = useCreateSuggestionContext();
  const translate = useTranslate();
  return (
    <Dialog open onClose={onCancel} fullWidth maxWidth="sm" aria-labelledby="quick-log-parameter-title">
      <DialogTitle id="quick-log-parameter-title">{translate('portal.catalogue.new_log_parameter')}</DialogTitle>
      <div onSubmit={(event) => event.stopPropagation()}>
        <CreateBase resource="logParameter" redirect={false} mutationOptions={{ onSuccess: (data: RaRecord) => onCreate(data) }}>
          <SimpleForm defaultValues={{ parameter_id: filter ?? '', type: 'FloatLogParameter' }} data-testid="quick-log-parameter">
            <TextInput source="parameter_id" validate={required()} autoFocus />
            <TextInput source="description" multiline />
            <FrenchInput source="description" multiline />
            <UnitInput />
            <SelectInput source="type" choices={LOG_PARAMETER_TYPE_CHOICES} validate={required()} />
          </SimpleForm>
        </CreateBase>
      </div>
      <DialogActions>
        <MuiButton onClick={onCancel}>{translate('ra.action.cancel')}</MuiButton>
      </DialogActions>
    </Dialog>
  );
}

/** The unit and type of a log parameter, in a row of an assignment list. */
function ParameterDetails() {
  return (
    <ReferenceField source="parameter_id" reference="logParameter" link={false}>
      <Stack direction="row" spacing={2} alignItems="baseline">
        <ReferenceField source="unit_cuid" reference="unit" link={false} emptyText="—">
          <TextField source="unit" />
        </ReferenceField>
        <SelectField source="type" choices={LOG_PARAMETER_TYPE_CHOICES} />
        <TextField source="description" emptyText="" sx={{ color: 'text.secondary' }} />
      </Stack>
    </ReferenceField>
  );
}

/**
 * The log parameters assigned to a device type or a category, with unit and type. Those who may
 * change the catalogue add one with an autocomplete (creating a new parameter on the way) and
 * remove one per row; the others see the list only.
 */
export function ParameterAssignments({
  resource,
  target,
}: {
  resource: 'entityTypeLogParameterAssignment' | 'entityCategoryLogParameterAssignment';
  target: string;
}) {
  const record = useRecordContext();
  const translate = useTranslate();
  const { canAccess: canAdd } = useCanAccess({ resource, action: 'create' });
  if (!record) return null;
  return (
    <Box sx={{ py: 2 }} data-testid="parameter-assignments">
      <ReferenceManyField reference={resource} target={target} sort={{ field: 'parameter_id', order: 'ASC' }} perPage={200}>
        <DataTable bulkActionButtons={false} rowClick={false} empty={<Typography sx={{ p: 2 }}>{translate('portal.catalogue.no_parameters')}</Typography>}>
          <DataTable.Col source="parameter_id" label="resources.logParameter.fields.parameter_id">
            <ReferenceField source="parameter_id" reference="logParameter" link="show" />
          </DataTable.Col>
          <DataTable.Col label="portal.catalogue.parameter_details" disableSort>
            <ParameterDetails />
          </DataTable.Col>
          <DataTable.Col label="" disableSort>
            <DeleteButton
              mutationMode="pessimistic"
              redirect={false}
              label="portal.catalogue.remove"
              confirmTitle="portal.catalogue.remove_parameter"
              confirmContent="portal.catalogue.remove_parameter_content"
            />
          </DataTable.Col>
        </DataTable>
      </ReferenceManyField>
      {canAdd && <AddParameter resource={resource} target={target} ownerId={record.id} />}
    </Box>
  );
}

/** Reloads the lists of one resource only (not the whole page: fewer requests at once). Fire and forget: invalidateQueries does not reject. */
function useRefreshResource(resource: string) {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: [resource] });
}

function AddParameter({ resource, target, ownerId }: { resource: string; target: string; ownerId: Identifier }) {
  const refresh = useRefreshResource(resource);
  const notify = useNotify();
  const [round, setRound] = useState(0);
  const { canAccess: canCreateParameter } = useCanAccess({ resource: 'logParameter', action: 'create' });
  return (
    <CreateBase
      key={round}
      resource={resource}
      redirect={false}
      mutationOptions={{
        onSuccess: () => {
          notify('portal.catalogue.parameter_added', { type: 'info' });
          setRound((r) => r + 1);
          refresh();
        },
      }}
    >
      <Form defaultValues={{ [target]: ownerId }}>
        <Stack direction="row" spacing={2} alignItems="flex-start" sx={{ mt: 2 }} data-testid="add-parameter">
          <ReferenceInput source="parameter_id" reference="logParameter" sort={{ field: 'parameter_id', order: 'ASC' }}>
            <AutocompleteInput
              id="add-parameter-input"
              label="portal.catalogue.add_parameter"
              optionText="parameter_id"
              filterToQuery={(q: string) => ({ q })}
              validate={required()}
              create={canCreateParameter ? <QuickLogParameter /> : undefined}
              createItemLabel="portal.catalogue.create_parameter"
              sx={{ minWidth: 320 }}
            />
          </ReferenceInput>
          <SaveButton label="portal.catalogue.add" icon={<AddIcon />} sx={{ mt: 1 }} />
        </Stack>
      </Form>
    </CreateBase>
  );
}

/** The interfaces of a controller type (alias, address, interface type): add, change, remove. */
export function InterfaceAssignments() {
  const record = useRecordContext();
  const translate = useTranslate();
  const resource = 'interfaceTypeControllerTypeAssignment';
  const { canAccess: canAdd } = useCanAccess({ resource, action: 'create' });
  const { canAccess: canEdit } = useCanAccess({ resource, action: 'edit' });
  const [editing, setEditing] = useState<RaRecord | null>(null);
  if (!record) return null;
  return (
    <Box sx={{ py: 2 }} data-testid="interface-assignments">
      <ReferenceManyField reference={resource} target="controllertype_cuid" sort={{ field: 'interfacetype_id', order: 'ASC' }} perPage={200}>
        <DataTable
          bulkActionButtons={false}
          rowClick={canEdit ? (_id, _resource, row) => (setEditing(row), false) : false}
          empty={<Typography sx={{ p: 2 }}>{translate('portal.catalogue.no_interfaces')}</Typography>}
        >
          <DataTable.Col source="alias" />
          <DataTable.Col source="interface_address" />
          <DataTable.Col source="interfacetype_id">
            <ReferenceField source="interfacetype_id" reference="interfaceType" link="show" />
          </DataTable.Col>
          <DataTable.Col label="" disableSort>
            <DeleteButton mutationMode="pessimistic" redirect={false} />
          </DataTable.Col>
        </DataTable>
      </ReferenceManyField>
      {canAdd && <AddInterface ownerId={record.id} />}
      {editing && <EditInterface record={editing} onClose={() => setEditing(null)} />}
    </Box>
  );
}

const interfaceInputs = (
  <>
    <TextInput source="alias" />
    <TextInput source="interface_address" />
    <ReferenceInput source="interfacetype_id" reference="interfaceType" sort={{ field: 'interfacetype_id', order: 'ASC' }}>
      <AutocompleteInput optionText="interfacetype_id" filterToQuery={(q: string) => ({ q })} validate={required()} />
    </ReferenceInput>
  </>
);

function AddInterface({ ownerId }: { ownerId: Identifier }) {
  const refresh = useRefreshResource('interfaceTypeControllerTypeAssignment');
  const [round, setRound] = useState(0);
  return (
    <CreateBase
      key={round}
      resource="interfaceTypeControllerTypeAssignment"
      redirect={false}
      mutationOptions={{
        onSuccess: () => {
          setRound((r) => r + 1);
          refresh();
        },
      }}
    >
      <Form defaultValues={{ controllertype_cuid: ownerId }}>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} alignItems="flex-start" sx={{ mt: 2 }} data-testid="add-interface">
          {interfaceInputs}
          <SaveButton label="portal.catalogue.add" icon={<AddIcon />} sx={{ mt: 1 }} />
        </Stack>
      </Form>
    </CreateBase>
  );
}

function EditInterface({ record, onClose }: { record: RaRecord; onClose: () => void }) {
  const translate = useTranslate();
  const refresh = useRefreshResource('interfaceTypeControllerTypeAssignment');
  const notify = useNotify();
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="edit-interface-title">
      <DialogTitle id="edit-interface-title">{translate('portal.catalogue.edit_interface')}</DialogTitle>
      <DialogContent>
        <EditBase
          resource="interfaceTypeControllerTypeAssignment"
          id={record.id}
          redirect={false}
          mutationMode="pessimistic"
          mutationOptions={{
            onSuccess: () => {
              notify('ra.notification.updated', { type: 'info', messageArgs: { smart_count: 1 } });
              onClose();
              refresh();
            },
          }}
        >
          <SimpleForm>{interfaceInputs}</SimpleForm>
        </EditBase>
      </DialogContent>
    </Dialog>
  );
}

/** The meta versions of a device type, newest first; a new version is a JSON object. */
export function MetaVersions() {
  const record = useRecordContext();
  const translate = useTranslate();
  const refresh = useRefreshResource('entityTypeMeta');
  const [round, setRound] = useState(0);
  const { canAccess: canAdd } = useCanAccess({ resource: 'entityTypeMeta', action: 'create' });
  if (!record) return null;
  return (
    <Box sx={{ py: 2 }} data-testid="meta-versions">
      <ReferenceManyField reference="entityTypeMeta" target="entitytype_id" sort={{ field: 'datetime', order: 'DESC' }} perPage={50}>
        <DataTable bulkActionButtons={false} rowClick={false} empty={<Typography sx={{ p: 2 }}>{translate('portal.catalogue.no_meta')}</Typography>}>
          <DataTable.Col source="datetime">
            <DateField source="datetime" showTime />
          </DataTable.Col>
          <DataTable.Col source="meta" disableSort>
            <JsonText source="meta" />
          </DataTable.Col>
          <DataTable.Col label="" disableSort>
            <DeleteButton mutationMode="pessimistic" redirect={false} />
          </DataTable.Col>
        </DataTable>
      </ReferenceManyField>
      {canAdd && (
        <CreateBase
          key={round}
          resource="entityTypeMeta"
          redirect={false}
          mutationOptions={{
            onSuccess: () => {
              setRound((r) => r + 1);
              refresh();
            },
          }}
        >
          <Form defaultValues={{ entitytype_id: record.id, meta: {} }}>
            <Stack spacing={1} sx={{ mt: 2 }} data-testid="add-meta">
              <JsonInput source="meta" label="portal.catalogue.new_meta" validate={jsonObject} minRows={4} />
              <Box>
                <SaveButton label="portal.catalogue.add_meta" />
              </Box>
            </Stack>
          </Form>
        </CreateBase>
      )}
    </Box>
  );
}
