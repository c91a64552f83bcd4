import Box from '@mui/material/Box';
import { ReferenceField, Show, TabbedShowLayout, TextField, TopToolbar, useGetOne, useRecordContext, useTranslate } from 'react-admin';
import { ZDeclaredCommands } from '../../../shared/controllers/command-wire';
import { JsonField } from '../kit/JsonField';
import { AccessEditButton } from '../kit/RecordButtons';
import type { TDeclaredCommand } from './api';
import { CommandList } from './CommandList';
import { ConfigView } from './ConfigView';
import { SendCommandButton } from './SendCommand';

interface ControllerRecord {
  id: string;
  controller_id: string;
  controllertype_cuid: string;
}

/** The commands the controller's type declares (controllerType.commands), the invalid ones left out. */
function useDeclaredCommands(controllerTypeCuid: string | undefined): TDeclaredCommand[] {
  const { data } = useGetOne<{ id: string; commands?: unknown }>('controllerType', { id: controllerTypeCuid ?? '' }, { enabled: Boolean(controllerTypeCuid) });
  const parsed = ZDeclaredCommands.safeParse(data?.commands ?? []);
  return parsed.success ? parsed.data : [];
}

function CommandsTab() {
  const record = useRecordContext<ControllerRecord>();
  const declared = useDeclaredCommands(record?.controllertype_cuid);
  if (!record) return null;
  const labels = Object.fromEntries(declared.filter((c) => c.label).map((c) => [c.name, c.label as string]));
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Box>
        <SendCommandButton controllerId={record.controller_id} declared={declared} />
      </Box>
      <CommandList controllerId={record.controller_id} labels={labels} />
    </Box>
  );
}

function ConfigurationTab() {
  const record = useRecordContext<ControllerRecord>();
  if (!record) return null;
  return <ConfigView controllerId={record.controller_id} />;
}

function Actions() {
  return (
    <TopToolbar>
      <AccessEditButton />
    </TopToolbar>
  );
}

function Title() {
  const record = useRecordContext<{ name?: string }>();
  const translate = useTranslate();
  return <>{`${translate('resources.controller.name', { smart_count: 1 })} ${record?.name ?? ''}`}</>;
}

/**
 * A controller: Summary, Configuration (desired against reported, Apply) and Commands (history,
 * Send command). Tab paths: /controller/<id>/show, …/show/configuration, …/show/commands (the
 * command toasts lead there).
 */
export function ControllerShow() {
  return (
    <Show actions={<Actions />} title={<Title />}>
      <TabbedShowLayout>
        <TabbedShowLayout.Tab label="portal.control.tabs.summary">
          <TextField source="controller_id" />
          <TextField source="name" />
          <ReferenceField source="controllertype_cuid" reference="controllerType" link={false}>
            <TextField source="model" />
          </ReferenceField>
          <ReferenceField source="system_cuid" reference="system" link="show" emptyText="—" />
          <TextField source="serial_number" emptyText="—" />
          <TextField source="sw_version" emptyText="—" />
          <JsonField source="controller_info" />
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label="portal.control.tabs.configuration" path="configuration">
          <ConfigurationTab />
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label="portal.control.tabs.commands" path="commands">
          <CommandsTab />
        </TabbedShowLayout.Tab>
      </TabbedShowLayout>
    </Show>
  );
}
