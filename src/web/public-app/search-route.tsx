/**
 * /search as a route of the staff app (reached by a link inside it; a page load of /search gets the public
 * bundle instead): the public page in the staff app's language, drawn by its own translator and look.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isLanguage } from '../../shared/i18n/index';
import SearchPage from '../features/public/pages/search-page';
import { PublicFrame } from './main-public';
import { showLanguage } from './public-i18n';
import { startLook } from './public-look';

export default function SearchRoute() {
  const { i18n } = useTranslation();
  const [ready, setReady] = useState(false);
  useEffect(() => {
    startLook();
    if (isLanguage(i18n.language)) void showLanguage(i18n.language).then(() => setReady(true));
    else setReady(true);
  }, [i18n.language]);
  return ready ? (
    <PublicFrame>
      <SearchPage />
    </PublicFrame>
  ) : null;
}
