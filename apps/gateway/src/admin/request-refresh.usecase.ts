import { Injectable } from '@nestjs/common';

/**
 * POST /admin/refresh: asks for one refresh pass (watches, company profiles, own index) now.
 * The pass itself is the refresh feature's; until it exists the request is only acknowledged.
 */
@Injectable()
export class RequestRefreshUseCase {
  execute(): { status: 'accepted' } {
    return { status: 'accepted' };
  }
}
