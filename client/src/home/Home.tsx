import { Box, Card, CardContent, Chip, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { Title, useTranslate } from 'react-admin';
import { usePageTitle } from '../layout/brand';
import { roleColour } from '../session/roles';
import { useSession } from '../session/SessionProvider';

function RoleChip({ name, level }: { name: string; level: number }) {
  const translate = useTranslate();
  return (
    <Chip
      size="small"
      label={name}
      title={translate('portal.home.level', { level })}
      sx={{ color: '#fff', backgroundColor: roleColour(level), fontWeight: 500 }}
      data-testid="role-chip"
      data-level={level}
    />
  );
}

/** The home page (a dashboard placeholder): greeting, the user's companies and roles, the role list. */
export default function Home() {
  const translate = useTranslate();
  const { context, roles } = useSession();
  usePageTitle(null);
  if (!context) return null;
  const { user, memberships, isSuperUser } = context;

  return (
    <Box sx={{ mt: 2, display: 'grid', gap: 2, maxWidth: 960 }} data-testid="home">
      <Title title={translate('portal.menu.home')} />
      <Card>
        <CardContent>
          <Typography variant="h5" component="h1" data-testid="greeting">
            {translate('portal.home.greeting', { name: user.name || user.email })}
          </Typography>
          <Typography color="text.secondary" sx={{ mt: 0.5 }}>
            {translate('portal.home.intro')}
          </Typography>
          {isSuperUser && (
            <Chip sx={{ mt: 1.5, color: '#fff', backgroundColor: roleColour(0) }} size="small" label={translate('portal.home.superuser')} data-testid="superuser-chip" />
          )}
        </CardContent>
      </Card>

      <Card>
        <CardContent>
          <Typography variant="h6" component="h2" gutterBottom>
            {translate('portal.home.companies')}
          </Typography>
          {memberships.length === 0 ? (
            <Typography color="text.secondary">{translate('portal.home.no_memberships')}</Typography>
          ) : (
            <Table size="small" data-testid="memberships">
              <TableHead>
                <TableRow>
                  <TableCell>{translate('portal.home.company')}</TableCell>
                  <TableCell>{translate('portal.home.role')}</TableCell>
                  <TableCell />
                </TableRow>
              </TableHead>
              <TableBody>
                {memberships.map((m) => (
                  <TableRow key={m.membership_cuid} data-testid="membership">
                    <TableCell>{m.company.name}</TableCell>
                    <TableCell>
                      <RoleChip name={m.role.name} level={m.role.level} />
                    </TableCell>
                    <TableCell>{m.is_company_admin ? translate('portal.home.admin') : ''}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </CardContent>
      </Card>

      <Card>
        <CardContent>
          <Typography variant="h6" component="h2" gutterBottom>
            {translate('portal.home.roles')}
          </Typography>
          {roles.length === 0 ? (
            <Typography color="text.secondary">{translate('portal.home.roles_empty')}</Typography>
          ) : (
            <Stack direction="row" spacing={1} useFlexGap flexWrap="wrap" data-testid="roles">
              {roles.map((r) => (
                <RoleChip key={r.role_cuid} name={r.name} level={r.level} />
              ))}
            </Stack>
          )}
        </CardContent>
      </Card>
    </Box>
  );
}
