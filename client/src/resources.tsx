/**
 * The back-office resources, one folder each (client/src/<resource>/index.ts exporting
 * { list, edit, create, show, icon, recordRepresentation }), spread into <Resource> here, e.g.
 *   import systems from './systems';
 *   <Resource name="system" {...systems} />
 * The resource name is the tRPC router name (the dataProvider calls `system.getList` …).
 * None yet: the back-office issue adds them.
 */
export const RESOURCES = [];
