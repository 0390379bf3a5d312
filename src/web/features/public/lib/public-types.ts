/** Shapes of the public API as the page reads them, from the contracts (type-only: no zod at run time). */
import type { ReportRequestResult } from '../../../../shared/contract/public';

export type {
  LookupAnswerData,
  LookupResult,
  PowChallenge,
  ReportRequestInput,
  ReportRequestResult,
} from '../../../../shared/contract/public';
export type ReportOutcome = ReportRequestResult['results'][number];
