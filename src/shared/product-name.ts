/**
 * A product's name in a language: its Chinese name on Chinese pages, certificates and emails when it has
 * one, its name otherwise. Kept apart from the zod contract so that the public page can use it without zod.
 */
export function productName(p: { name: string; nameZh?: string | null }, language: string): string {
  return language === 'zh' && p.nameZh ? p.nameZh : p.name;
}
