import { describe, expect, it } from 'vitest';
import { catalogues, flattenKeys } from '../src/shared/i18n/index';

describe('message catalogues', () => {
  it('en and zh have exactly the same keys', () => {
    const en = flattenKeys(catalogues.en).sort();
    const zh = flattenKeys(catalogues.zh).sort();
    expect(zh.filter((k) => !en.includes(k))).toEqual([]);
    expect(en.filter((k) => !zh.includes(k))).toEqual([]);
  });

  it('keeps the original error catalogue texts', () => {
    expect(flattenKeys(catalogues.en)).toEqual(
      expect.arrayContaining([
        'errors.userNotFound',
        'errors.emailOrPasswordWrong',
        'errors.emailNotExists',
        'errors.productNotFound',
        'errors.serialNotFound',
      ]),
    );
  });
});
