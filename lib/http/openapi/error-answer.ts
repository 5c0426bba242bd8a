import { z } from 'zod';
import { appErrorCodes } from '../../errors';

/**
 * Every refusal of the public API, as lib/http/api-edge.ts's `errorAnswer` writes it: lib/errors.ts's
 * `publicError` under `error` (`details.field` names the input that was refused, where one was).
 */
export const appErrorAnswer = z.object({
  error: z.object({
    code: z.enum(appErrorCodes),
    message: z.string(),
    details: z.unknown().optional(),
  }),
});
export type AppErrorAnswer = z.infer<typeof appErrorAnswer>;
