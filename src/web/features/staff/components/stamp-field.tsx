/** An inspector's stamp (PNG or JPEG up to 512 KB; the server checks the content), apart from the dialog's form. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { STAMP_MAX_BYTES, type StaffMember } from '../../../../shared/contract/staff';
import { ImageUploadField } from '../../../components/image-upload-field';
import { notifySuccess } from '../../../lib/toast';
import { stampHref, useRemoveStamp, useUploadStamp } from '../api';

export function StampField({ member }: { member: StaffMember }) {
  const { t } = useTranslation();
  const upload = useUploadStamp();
  const remove = useRemoveStamp();
  // The dialog's member is the one it opened with: the stamp's state is kept here after a change.
  const [current, setCurrent] = useState<string | null>(stampHref(member));
  const alt = t('staffScreens.stampAlt', { name: member.name });
  return (
    <ImageUploadField
      title={t('staffScreens.stamp')}
      current={current}
      alt={{ current: alt, preview: alt }}
      hint={t('staffScreens.stampHint')}
      none={t('staffScreens.stampNone')}
      maxBytes={STAMP_MAX_BYTES}
      refused={{ type: 'staff.stamp.type', tooLarge: 'staff.stamp.tooLarge' }}
      labels={{
        choose: t(current ? 'staffScreens.stampReplace' : 'staffScreens.stampUpload'),
        upload: t('staffScreens.stampUpload'),
        remove: t('staffScreens.stampRemove'),
      }}
      canEdit
      height={80}
      testId="stamp"
      upload={async (file) => {
        const saved = await upload.mutateAsync({ id: member.id, file });
        setCurrent(stampHref({ id: member.id, stampSha256: saved.stampSha256 }));
        notifySuccess('staff.stamp.saved');
      }}
      remove={async () => {
        await remove.mutateAsync(member.id);
        setCurrent(null);
        notifySuccess('staff.stamp.removed');
      }}
      uploading={upload.isPending}
      removing={remove.isPending}
    />
  );
}
