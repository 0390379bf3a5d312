import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { enumerationComma } from '../../../../shared/i18n/punctuation';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/page-header';
import { useAppAbility } from '../../../lib/ability';
import { useMe } from '../../auth/api';

/** Lists the abilities of the signed-in user (the original's AclDemo page). */
export default function AccessControlPage() {
  const { t, i18n } = useTranslation();
  const ability = useAppAbility();
  const me = useMe();
  const list = (v: unknown) => (Array.isArray(v) ? v.map(String) : [String(v)]);
  return (
    <>
      <PageHeader title="pages.accessControl" />
      <Card>
        <CardContent>
          <Typography sx={{ mb: 2 }}>
            {t('app.accessControlIntro', { name: me?.user.name ?? '', role: me ? t(`app.roles.${me.user.role}`) : '' })}
          </Typography>
          <TableContainer>
            <Table size="small" aria-label={t('app.abilities')}>
              <TableHead>
                <TableRow>
                  <TableCell>{t('app.abilityAction')}</TableCell>
                  <TableCell>{t('app.abilitySubject')}</TableCell>
                  <TableCell>{t('app.abilityEffect')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {ability.rules.map((rule, i) => (
                  <TableRow key={i}>
                    <TableCell>
                      {list(rule.action)
                        .map((a) => t(`app.aclActions.${a}`, { defaultValue: a }))
                        .join(enumerationComma(i18n.language))}
                    </TableCell>
                    <TableCell>
                      {list(rule.subject)
                        .map((s) => t(`app.aclSubjects.${s}`, { defaultValue: s }))
                        .join(enumerationComma(i18n.language))}
                    </TableCell>
                    <TableCell>
                      <Chip
                        size="small"
                        color={rule.inverted ? 'default' : 'success'}
                        label={t(rule.inverted ? 'app.cannot' : 'app.can')}
                      />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        </CardContent>
      </Card>
    </>
  );
}
