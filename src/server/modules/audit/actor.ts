import type { FastifyRequest } from 'fastify';
import { AppError } from '../../../shared/errors';
import { translate, type Language } from '../../../shared/i18n/index';
import { requestLanguage } from '../../lib/request-language';
import type { AuditActor } from './audit.writer';

/** Who the audit log names for a change made by this request. */
export function actorOf(req: FastifyRequest): AuditActor {
  if (!req.user) throw new AppError('unauthenticated', 'errors.unauthenticated');
  return { id: req.user.id, label: req.user.email, ip: req.ip };
}

/** The toast text of a successful change, with its key so the web app may translate it itself. */
export function successMessage(req: FastifyRequest, key: string): { message: string; messageKey: string } {
  return { message: translate(requestLanguage(req), key), messageKey: key };
}

export function languageOf(req: FastifyRequest): Language {
  return requestLanguage(req);
}
