/** The Chinese catalogue as one chunk, fetched when Chinese is first chosen. */
type Tree = { [key: string]: string | Tree };

const modules = import.meta.glob<{ default: Tree }>('../../shared/i18n/zh/*.json', { eager: true });

const catalogue: Tree = Object.fromEntries(
  Object.entries(modules).map(([file, m]) => [file.replace(/^.*\/(\w+)\.json$/, '$1'), m.default]),
);

export default catalogue;
