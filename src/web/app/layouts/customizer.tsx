/** The customizer panel: every interface preference of docs/product.md §8, applied live. */
import Close from '@mui/icons-material/Close';
import RestartAlt from '@mui/icons-material/RestartAlt';
import SettingsOutlined from '@mui/icons-material/SettingsOutlined';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import Fab from '@mui/material/Fab';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import Switch from '@mui/material/Switch';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { hint } from '../../components/hint';
import { usePreferences } from '../../lib/preferences';
import { PREFERENCE_VALUES, type Preferences } from '../../../shared/preferences';

type ChoiceKey = keyof typeof PREFERENCE_VALUES;
type FlagKey = 'navbarBlur' | 'verticalNavCollapsed' | 'semiDark';

function Choice<K extends ChoiceKey>({ name, disabled }: { name: K; disabled?: boolean }) {
  const { t } = useTranslation();
  const { preferences, setPreference } = usePreferences();
  const labelId = `pref-${name}-label`;
  return (
    <Box sx={{ mb: 2.5 }}>
      <Typography id={labelId} variant="subtitle2" sx={{ mb: 1 }}>
        {t(`prefs.${name}`)}
      </Typography>
      <ToggleButtonGroup
        exclusive
        color="primary"
        size="small"
        fullWidth
        disabled={disabled}
        value={preferences[name]}
        aria-labelledby={labelId}
        onChange={(_, v: Preferences[K] | null) => v && setPreference(name, v)}
      >
        {PREFERENCE_VALUES[name].map((v) => (
          <ToggleButton key={v} value={v} data-testid={`pref-${name}-${v}`}>
            {t(`prefs.values.${v}`)}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
    </Box>
  );
}

function Flag({ name, disabled }: { name: FlagKey; disabled?: boolean }) {
  const { t } = useTranslation();
  const { preferences, setPreference } = usePreferences();
  return (
    <FormControlLabel
      sx={{ display: 'flex', justifyContent: 'space-between', ml: 0, mb: 1 }}
      labelPlacement="start"
      disabled={disabled}
      control={
        <Switch
          checked={preferences[name]}
          onChange={(e) => setPreference(name, e.target.checked)}
          slotProps={{ input: { 'data-testid': `pref-${name}` } as object }}
        />
      }
      label={t(`prefs.${name}`)}
    />
  );
}

/** The button that opens the customizer: in the navbar, or floating when the navbar is hidden. */
export function CustomizerButton({ floating, onOpen }: { floating: boolean; onOpen: () => void }) {
  const { t } = useTranslation();
  return (
    <>
      {floating ? (
        <Fab
          {...hint(t('prefs.open'))}
          color="primary"
          size="small"
          aria-label={t('prefs.open')}
          onClick={onOpen}
          data-testid="open-customizer"
          sx={{ position: 'fixed', right: 16, top: 12, zIndex: (theme) => theme.zIndex.speedDial }}
        >
          <SettingsOutlined />
        </Fab>
      ) : (
        <IconButton {...hint(t('prefs.open'))} aria-label={t('prefs.open')} onClick={onOpen} data-testid="open-customizer">
          <SettingsOutlined />
        </IconButton>
      )}
    </>
  );
}

export function Customizer({ overlayNav, open, onClose }: { overlayNav: boolean; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { preferences, reset } = usePreferences();
  const horizontal = preferences.layout === 'horizontal' && !overlayNav;
  return (
    <>
      <Drawer
        anchor="right"
        open={open}
        onClose={onClose}
        slotProps={{ paper: { sx: { width: { xs: '100%', sm: 360 } }, role: 'dialog', 'aria-labelledby': 'customizer-title' } as object }}
      >
        <Box sx={{ display: 'flex', alignItems: 'center', p: 2 }}>
          <Box sx={{ flex: 1 }}>
            <Typography id="customizer-title" variant="h6" component="h2">
              {t('prefs.title')}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {t('prefs.subtitle')}
            </Typography>
          </Box>
          <Tooltip title={t('prefs.reset')}>
            <IconButton aria-label={t('prefs.reset')} onClick={reset}>
              <RestartAlt />
            </IconButton>
          </Tooltip>
          <IconButton aria-label={t('app.close')} onClick={onClose}>
            <Close />
          </IconButton>
        </Box>
        <Divider />
        <Box sx={{ p: 2.5, overflowY: 'auto' }}>
          <Typography variant="overline" color="text.secondary" component="h3">
            {t('prefs.themingSection')}
          </Typography>
          <Choice name="theme" />
          <Choice name="skin" />
          <Flag name="semiDark" disabled={horizontal} />
          <Divider sx={{ my: 2 }} />
          <Typography variant="overline" color="text.secondary" component="h3">
            {t('prefs.layoutSection')}
          </Typography>
          <Choice name="layout" />
          {overlayNav && (
            <Typography variant="body2" color="text.secondary" sx={{ mt: -1.5, mb: 2 }}>
              {t('prefs.layoutNarrow')}
            </Typography>
          )}
          <Choice name="navbarType" />
          <Flag name="navbarBlur" />
          <Choice name="footerType" />
          <Choice name="contentWidth" />
          <Flag name="verticalNavCollapsed" disabled={horizontal || overlayNav} />
        </Box>
      </Drawer>
    </>
  );
}
