import { Chip, MenuItem, TextField as MuiTextField } from '@mui/material';
import { FieldTitle, InputHelperText, type InputProps, useInput, useLocaleState, useRecordContext, useTranslate } from 'react-admin';
import { localText } from '../i18n/localText';
import type { TRole } from '../session/session-manager';
import { useSession } from '../session/SessionProvider';

/** Spec §6 role level colours: 0 red, 1 orange, 2 blue, 3 green (text contrast ≥ 4.5:1). */
export const ROLE_LEVEL_COLOURS: Record<number, { bg: string; fg: string; name: string }> = {
  0: { bg: '#c62828', fg: '#ffffff', name: 'red' },
  1: { bg: '#ef6c00', fg: '#000000', name: 'orange' },
  2: { bg: '#1565c0', fg: '#ffffff', name: 'blue' },
  3: { bg: '#2e7d32', fg: '#ffffff', name: 'green' },
};

export function RoleLevelChip({ level, name, size = 'small' }: { level: number; name?: string; size?: 'small' | 'medium' }) {
  const translate = useTranslate();
  const colour = ROLE_LEVEL_COLOURS[level] ?? { bg: '#757575', fg: '#ffffff', name: 'grey' };
  return (
    <Chip
      size={size}
      label={name ? `${name} (${level})` : translate('portal.organisation.level', { level, _: `Level ${level}` })}
      data-level={level}
      data-colour={colour.name}
      sx={{ bgcolor: colour.bg, color: colour.fg, fontWeight: 600 }}
    />
  );
}

/** A role's name in the reader's language (the role's French from role.all on French screens). */
export function useRoleName(): (role: { name: string; translations?: Record<string, unknown> }) => string {
  const [locale] = useLocaleState();
  return (role) => localText(role, 'name', locale) ?? role.name;
}

/** The role of the record in context: role_name/role_level (memberships) or name/level (roles), named in the reader's language. */
export function RoleChipField(_props: { source?: string; label?: string; sortable?: boolean }) {
  const record = useRecordContext();
  const { roles } = useSession();
  const roleName = useRoleName();
  if (!record) return null;
  const level = (record.role_level ?? record.level) as number | undefined;
  const known =
    roles.find((r) => r.role_cuid === record.role_cuid) ?? (level === undefined || level === null ? undefined : roles.find((r) => r.level === level));
  if (level === undefined || level === null) return known ? <RoleLevelChip level={known.level} name={roleName(known)} /> : null;
  const name = known
    ? roleName(known)
    : record.translations
      ? roleName(record as unknown as { name: string })
      : ((record.role_name ?? record.name) as string | undefined);
  return <RoleLevelChip level={level} name={name} />;
}

/** The roles (role.all, loaded by the session), most powerful first. */
export function useRoles(): TRole[] {
  const { roles } = useSession();
  return [...roles].sort((a, b) => a.level - b.level);
}

/** A select of the roles showing each level's colour: `<RoleSelectInput source="role_cuid" />`. */
export function RoleSelectInput(props: InputProps & { helperText?: string }) {
  const roles = useRoles();
  const roleName = useRoleName();
  const { id, field, fieldState, isRequired } = useInput({ ...props, id: props.id ?? props.source });
  const error = fieldState.error?.message;
  return (
    <MuiTextField
      select
      id={id}
      {...field}
      value={(field.value as string | null | undefined) ?? ''}
      label={<FieldTitle label={props.label} source={props.source} resource={props.resource} isRequired={isRequired} />}
      error={!!error}
      helperText={<InputHelperText error={error} helperText={props.helperText} />}
      disabled={props.disabled}
      sx={{ minWidth: 260 }}
      size="small"
      margin="dense"
      slotProps={{ select: { MenuProps: { slotProps: { paper: { 'aria-label': 'roles' } as object } } } }}
    >
      {roles.map((r) => (
        <MenuItem key={r.role_cuid} value={r.role_cuid}>
          <RoleLevelChip level={r.level} name={roleName(r)} />
        </MenuItem>
      ))}
    </MuiTextField>
  );
}
