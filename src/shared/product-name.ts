/**
 * A product's name in a language: its Chinese name on Chinese pages, certificates and emails when it has
 * one, its name otherwise. Kept apart from the zod contract so that the public page can use it without zod.
 */
export function productName(p: { name: string; nameZh?: string | null }, language: string): string {
  return language === 'zh' && p.nameZh ? p.nameZh : p.name;
}

/** The free texts a product has in both languages: the English one, and its Chinese one ('' = none). */
export type ProductTextField = 'connection' | 'application' | 'applicationMedium';

/** A product's connection, application or medium in a language: its Chinese text on Chinese pages when set. */
export function productText(
  p: { [K in ProductTextField]: string } & { [K in `${ProductTextField}Zh`]?: string | null },
  field: ProductTextField,
  language: string,
): string {
  const zh = p[`${field}Zh`];
  return language === 'zh' && zh ? zh : p[field];
}
