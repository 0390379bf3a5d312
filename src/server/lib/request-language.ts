import type { FastifyRequest } from 'fastify';
import { DEFAULT_LANGUAGE, isLanguage, type Language } from '../../shared/i18n/index';

/** The signed-in user's language, else the first of Accept-Language we speak, else English. */
export function requestLanguage(req: FastifyRequest): Language {
  if (req.user && isLanguage(req.user.language)) return req.user.language;
  const header = req.headers['accept-language'];
  if (typeof header === 'string') {
    for (const part of header.split(',')) {
      const tag = part.split(';')[0]?.trim().toLowerCase().slice(0, 2);
      if (isLanguage(tag)) return tag;
    }
  }
  return DEFAULT_LANGUAGE;
}
