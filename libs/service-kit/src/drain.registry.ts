import { Injectable } from '@nestjs/common';

export type DrainStep = () => Promise<void>;

/**
 * Work that must stop before the rest of the application closes: consumers stop fetching and
 * finish in-flight messages while the database, Redis and the producer are still connected.
 * Nest's own hooks close modules in an order that would cut those connections first.
 */
@Injectable()
export class DrainRegistry {
  private readonly steps: Array<{ name: string; step: DrainStep }> = [];

  register(name: string, step: DrainStep): void {
    this.steps.push({ name, step });
  }

  async drainAll(onError: (name: string, error: unknown) => void): Promise<void> {
    await Promise.all(
      this.steps.map(async ({ name, step }) => {
        try {
          await step();
        } catch (error) {
          onError(name, error);
        }
      }),
    );
  }
}
