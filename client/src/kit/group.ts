import type { ComponentType, ReactElement } from 'react';
import type { ResourceProps } from 'react-admin';

/** Messages a group adds, merged over the portal's own (keys: `resources.<name>…`, `portal.<group>…`). */
export interface GroupMessages {
  en: Record<string, unknown>;
  fr: Record<string, unknown>;
}

/**
 * One section of the side menu (spec users: back office, installers, superusers) and the
 * react-admin resources in it. Each group lives in its own folder (client/src/<group>/index.tsx).
 */
export interface ResourceGroup {
  key: 'organisation' | 'fleet' | 'alerts' | 'catalogue' | 'admin';
  /** i18n key of the section title. */
  label: string;
  icon?: ComponentType;
  resources: ResourceProps[];
  /** Pages of the group that are not resources (e.g. /fleet/import), as <Route> elements. */
  routes?: ReactElement[];
  messages: GroupMessages;
}

/** Deep merge of message trees (later wins), for group messages over the base ones. */
export function mergeMessages<T extends Record<string, unknown>>(base: T, ...more: Record<string, unknown>[]): T {
  const out: Record<string, unknown> = { ...base };
  for (const tree of more) {
    for (const [k, v] of Object.entries(tree)) {
      const prev = out[k];
      out[k] =
        v && typeof v === 'object' && !Array.isArray(v) && prev && typeof prev === 'object'
          ? mergeMessages(prev as Record<string, unknown>, v as Record<string, unknown>)
          : v;
    }
  }
  return out as T;
}
