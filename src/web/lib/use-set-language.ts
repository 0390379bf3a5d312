import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { Me } from '../../shared/contract/auth';
import type { Language } from '../../shared/i18n/index';
import { api } from './api';
import { changeLanguage } from './i18n';
import { notifyError } from './toast';

const ME_KEY = ['auth', 'me'] as const;

/** Changes the interface language now and, for a signed-in user, on the account (so a new sign-in keeps it). */
export function useSetLanguage() {
  const qc = useQueryClient();
  return useCallback(
    async (language: Language) => {
      await changeLanguage(language);
      const me = qc.getQueryData<Me | null>(ME_KEY);
      if (!me) return;
      qc.setQueryData<Me | null>(ME_KEY, { ...me, user: { ...me.user, language } } as Me);
      try {
        await api.patch('/auth/me', { language });
      } catch (err) {
        notifyError(err);
      }
    },
    [qc],
  );
}
