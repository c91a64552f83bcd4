import { Resource } from 'react-admin';
import systems from './systems';

/**
 * The back-office resources, one folder each (client/src/<resource>/index.tsx exporting
 * { list, edit, create, show, icon, recordRepresentation }), spread into <Resource> here.
 * The resource name is the tRPC router name (the dataProvider calls `system.getList` …).
 */
export const RESOURCES = [<Resource key="system" name="system" {...systems} />];
