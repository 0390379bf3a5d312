import { PlaceholderPage } from '../../../components/placeholder-page';

/** Placeholder: the issue that owns this screen builds its content. */
export default function Page() {
  return <PlaceholderPage title="pages.addProduct" />;
}
