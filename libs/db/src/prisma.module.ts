import {
  type DynamicModule,
  type FactoryProvider,
  type InjectionToken,
  type ModuleMetadata,
  Module,
  type OptionalFactoryDependency,
} from '@nestjs/common';
import { type PrismaClientOptions } from './prisma-client.js';
import { DATABASE_URL_TOKEN, PRISMA_CLIENT_OPTIONS_TOKEN, PrismaService } from './prisma.service.js';

export interface PrismaModuleOptions extends PrismaClientOptions {
  /** PostgreSQL connection string. */
  url: string;
  /** Register PrismaService globally (default true). */
  isGlobal?: boolean;
}

export interface PrismaModuleAsyncOptions extends Pick<ModuleMetadata, 'imports'> {
  inject?: (InjectionToken | OptionalFactoryDependency)[];
  useFactory: (
    ...args: never[]
  ) => Omit<PrismaModuleOptions, 'isGlobal'> | Promise<Omit<PrismaModuleOptions, 'isGlobal'>>;
  isGlobal?: boolean;
}

const RESOLVED_OPTIONS = Symbol('@jobs/db:resolved-options');

/**
 * `PrismaModule.forRoot({ url: config.databaseUrl, poolSize: 10 })` provides PrismaService
 * (plus the DATABASE_URL_TOKEN / PRISMA_CLIENT_OPTIONS_TOKEN values) — globally by default.
 */
@Module({})
export class PrismaModule {
  static forRoot(options: PrismaModuleOptions): DynamicModule {
    const { url, isGlobal = true, ...clientOptions } = options;
    return {
      module: PrismaModule,
      global: isGlobal,
      providers: [
        { provide: DATABASE_URL_TOKEN, useValue: url },
        { provide: PRISMA_CLIENT_OPTIONS_TOKEN, useValue: clientOptions },
        PrismaService,
      ],
      exports: [PrismaService, DATABASE_URL_TOKEN],
    };
  }

  /** Same as forRoot, with the options computed from other providers (e.g. a config service). */
  static forRootAsync(options: PrismaModuleAsyncOptions): DynamicModule {
    const resolved: FactoryProvider = {
      provide: RESOLVED_OPTIONS,
      inject: options.inject ?? [],
      useFactory: options.useFactory as (...args: unknown[]) => unknown,
    };
    return {
      module: PrismaModule,
      global: options.isGlobal ?? true,
      imports: options.imports ?? [],
      providers: [
        resolved,
        { provide: DATABASE_URL_TOKEN, inject: [RESOLVED_OPTIONS], useFactory: (o: PrismaModuleOptions) => o.url },
        {
          provide: PRISMA_CLIENT_OPTIONS_TOKEN,
          inject: [RESOLVED_OPTIONS],
          useFactory: ({ url: _url, isGlobal: _g, ...rest }: PrismaModuleOptions) => rest,
        },
        PrismaService,
      ],
      exports: [PrismaService, DATABASE_URL_TOKEN],
    };
  }
}
