/**
 * The fields a visitor fills in step 2, taken from the shared contract's schema of the report request
 * (its input object, before the serials are normalised): the serials and the proof-of-work are added by
 * the page, not typed, so the resolver checks only these four, with the server's own rules and messages.
 */
// First: the public page builds the contract's schemas here, and zod decides whether to probe `new Function`
// as it builds an object schema (lib/zod-jitless.ts). In the build the setting is in zod's own chunk anyway.
import '../../../lib/zod-jitless';
import type { Resolver } from 'react-hook-form';
import type { z } from 'zod';
import { reportRequestInput } from '../../../../shared/contract/public';
import { zodFormResolver } from '../../../components/form/zod-resolver';

export const requestFormInput = reportRequestInput.in.pick({ email: true, agreeToTerms: true, language: true, bilingual: true });

/** The form's values: the checkbox starts unchecked, although only `true` passes the schema. */
export type RequestFormFields = Omit<z.input<typeof requestFormInput>, 'agreeToTerms'> & { agreeToTerms: boolean };

export const requestFormResolver = zodFormResolver(requestFormInput) as unknown as Resolver<
  RequestFormFields,
  unknown,
  z.output<typeof requestFormInput>
>;
