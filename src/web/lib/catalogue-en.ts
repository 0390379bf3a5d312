/** The whole English catalogue as one chunk (the first bundle holds only what every page needs). */
type Tree = { [key: string]: string | Tree };

const modules = import.meta.glob<{ default: Tree }>('../../shared/i18n/en/*.json', { eager: true });

const catalogue: Tree = Object.fromEntries(
  Object.entries(modules).map(([file, m]) => [file.replace(/^.*\/(\w+)\.json$/, '$1'), m.default]),
);

export default catalogue;
