import { useMutation, useQuery } from '@tanstack/react-query';
import { trpc } from '../trpc';

// A system's metadata (docs/system-metadata.md): the template's sections, fieldsets and fields, the
// stored values, and the calls that read and save them.

export interface MetadataField {
  key: string;
  label: string;
  type: 'text' | 'number' | 'integer' | 'date' | 'boolean' | 'select';
  unit?: string;
  options?: (string | { value: string; label?: string })[];
  required?: boolean;
  min?: number;
  max?: number;
}
export interface MetadataFieldset {
  fieldset_id: string | number;
  title: string;
  description?: string | null;
  /** The field definitions (forSystem gives `fields`; a template row keeps them in `data.fields`). */
  fields?: MetadataField[];
  data?: { fields: MetadataField[] };
  /** forSystem lists active fieldsets only; a row says so itself. */
  active?: boolean;
  section_index: number;
  /** French beside the English (`{ fr: { title, description, "field.<key>.label" } }`). */
  translations?: Record<string, unknown>;
}
export interface MetadataSection {
  section_id: string | number;
  title: string;
  description?: string | null;
  isPhaseSection: boolean;
  index: number;
  fieldsets: MetadataFieldset[];
  translations?: Record<string, unknown>;
}
export interface SystemMetadataView {
  template: MetadataSection[];
  data: Record<string, unknown>;
  metadata_cuid: string | null;
  canChange: boolean;
}

type MetadataApi = {
  forSystem: { query(input: { system_cuid: string }): Promise<SystemMetadataView> };
  save: { mutate(input: { system_cuid: string; data: Record<string, unknown> }): Promise<unknown> };
};
const api = () => (trpc as unknown as { systemMetadata: MetadataApi }).systemMetadata;

export const systemMetadataKey = (system_cuid: string) => ['systemMetadata', 'forSystem', system_cuid];

/** A system's metadata: the active template, the stored values, whether the caller may change them. */
export function useSystemMetadata(system_cuid: string) {
  return useQuery({ queryKey: systemMetadataKey(system_cuid), queryFn: () => api().forSystem.query({ system_cuid }) });
}

/** Saves a system's metadata (the caller refreshes it). */
export function useSaveSystemMetadata() {
  return useMutation({ mutationFn: (input: { system_cuid: string; data: Record<string, unknown> }) => api().save.mutate(input) });
}
