/** The company logo (PNG or JPEG up to 1 MB; the server checks the content), apart from the text form. */
import { useTranslation } from 'react-i18next';
import { LOGO_MAX_BYTES, type Settings } from '../../../../shared/contract/settings';
import { ImageUploadField } from '../../../components/image-upload-field';
import { notifySuccess } from '../../../lib/toast';
import { useRemoveLogo, useUploadLogo } from '../api';

export function LogoField({ settings, canEdit }: { settings: Settings; canEdit: boolean }) {
  const { t } = useTranslation();
  const uploadLogo = useUploadLogo();
  const removeLogo = useRemoveLogo();
  return (
    <ImageUploadField
      title={t('settingsScreen.logo.title')}
      current={settings.logo ? `/api/v1/settings/logo?v=${settings.logo.sha256.slice(0, 16)}` : null}
      alt={{ current: t('settingsScreen.logo.currentAlt'), preview: t('settingsScreen.logo.previewAlt') }}
      hint={t('settingsScreen.logo.hint')}
      none={t('settingsScreen.logo.none')}
      maxBytes={LOGO_MAX_BYTES}
      refused={{ type: 'settings.logoType', tooLarge: 'settings.logoTooLarge' }}
      labels={{ choose: t('settingsScreen.logo.choose'), upload: t('settingsScreen.logo.upload'), remove: t('settingsScreen.logo.remove') }}
      canEdit={canEdit}
      height={96}
      testId="logo"
      upload={async (file) => notifySuccess((await uploadLogo.mutateAsync(file)).messageKey)}
      remove={async () => notifySuccess((await removeLogo.mutateAsync()).messageKey)}
      uploading={uploadLogo.isPending}
      removing={removeLogo.isPending}
    />
  );
}
