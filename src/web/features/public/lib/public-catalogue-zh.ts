/** The public page's strings in Chinese: fetched when a visitor switches to it on an English page. */
import type { Tree } from '../../../lib/language-start';

const modules = import.meta.glob<{ default: Tree }>(
  ['../../../../shared/i18n/zh/{app,pages,errors,validation,search,visitor,authScreens,form}.json'],
  {
    eager: true,
  },
);

export default Object.fromEntries(Object.entries(modules).map(([file, m]) => [file.replace(/^.*\/(\w+)\.json$/, '$1'), m.default])) as Tree;
