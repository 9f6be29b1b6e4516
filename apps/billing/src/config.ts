import { z } from 'zod';
import { SharedEnvSchema } from '@jobs/config';

export const BillingEnvSchema = SharedEnvSchema.extend({
  HEALTH_PORT: z.coerce.number().int().min(0).max(65535).default(9104),
});
export type BillingConfig = z.infer<typeof BillingEnvSchema>;
