/**
 * /search as a route of the staff app (reached by a link inside it; a page load of /search gets the public
 * bundle instead): the public page's own module, loaded when the route is, in the staff app's language.
 */
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_LANGUAGE, isLanguage } from '../../shared/i18n/languages';

const PublicPage = lazy(() => import('./main-public'));

export default function SearchRoute() {
  const { i18n } = useTranslation();
  return (
    <Suspense fallback={null}>
      <PublicPage language={isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE} />
    </Suspense>
  );
}
