import { z } from 'zod';
import { DEV_ADMIN_TOKEN, loadConfig } from '@jobs/config';
import { ADDED_SLOT_BASE } from '@jobs/sim-world';

export const ProviderSimEnvSchema = z.object({
  PROVIDER_SIM_PORT: z.coerce.number().int().min(0).max(65535).default(8090),
  PROVIDER_SIM_HOST: z.string().min(1).default('127.0.0.1'),
  WORLD_SEED: z.coerce.number().int().min(0).max(4294967295).default(42),
  /**
   * Standing requisitions of the simulated market (about 83 % open at any time), at most ADDED_SLOT_BASE (160,000):
   * 121,000 give a store of 100,000 open jobs.
   */
  WORLD_SLOTS: z.coerce.number().int().min(1).max(ADDED_SLOT_BASE).default(36_000),
  /**
   * Companies of the simulated market: `bench:watches` watches distinct companies, so 10,000 watches want at least as
   * many.
   */
  WORLD_COMPANIES: z.coerce.number().int().min(1).max(100_000).default(3_000),
  /**
   * The market as real ones are (late partner listings, bare openings, fields dropped on
   * re-listing, tracked apply URLs, multi-city requisitions): `bench:store-truth` runs on it.
   */
  WORLD_MESSY: z
    .enum(['0', '1', 'true', 'false'])
    .default('0')
    .transform((v) => v === '1' || v === 'true'),
  /**
   * How fast the market's clock runs (1: real time; 1440: a day a minute). The times partners'
   * requests send are read on the caller's clock. `PUT /_control/world/clock` changes it.
   */
  WORLD_CLOCK_SPEED: z.coerce.number().min(0).max(100_000).default(1),
  /**
   * How many companies publish an ATS board from the start (those that hire most; Greenhouse,
   * Lever and Ashby in turn): their openings are read from `/{ats}/...`, not the own-index feed.
   */
  WORLD_BOARDS: z.coerce.number().int().min(0).max(100_000).default(0),
  /** How long `fail: "timeout"` holds an answer back (operator.md: 60 s). */
  PROVIDER_SIM_TIMEOUT_MS: z.coerce.number().int().min(0).max(600000).default(60000),
  /** The bearer token of the control routes: the gateway's admin token, which fronts them. */
  ADMIN_TOKEN: z.string().min(8).default(DEV_ADMIN_TOKEN),
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
});

export type ProviderSimEnv = z.infer<typeof ProviderSimEnvSchema>;

/** What the app's modules need; tests build it directly (and may inject a clock). */
export interface SimOptions {
  seed: number;
  timeoutMs: number;
  /** Bearer token of the `/_control` routes. */
  adminToken: string;
  /** the market's size (the World's defaults when absent) */
  slots?: number;
  companies?: number;
  clock?: () => number;
  messy?: boolean;
  /** Companies publishing an ATS board from the start (none when absent). */
  boards?: number;
  /** The market clock's speed (1 when absent); with `clock` set, the clock is that one. */
  clockSpeed?: number;
}

export const SIM_OPTIONS = Symbol('SIM_OPTIONS');

export function loadProviderSimEnv(env: NodeJS.ProcessEnv = process.env): Readonly<ProviderSimEnv> {
  return loadConfig(ProviderSimEnvSchema, env);
}
