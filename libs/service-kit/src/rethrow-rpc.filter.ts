import { applyDecorators, Catch, Controller, UseFilters, type RpcExceptionFilter } from '@nestjs/common';
import { throwError, type Observable } from 'rxjs';

/**
 * Nest turns an exception in a message handler into `{status:'error', message:'Internal server
 * error'}`; the consumer needs the error itself to decide between retrying and dead-lettering.
 */
@Catch()
export class RethrowRpcFilter implements RpcExceptionFilter<unknown> {
  catch(exception: unknown): Observable<never> {
    return throwError(() => exception);
  }
}

/**
 * Marks a controller whose methods handle Kafka messages (`@EventPattern`): a handler's error
 * reaches the consumer unchanged, so it can retry or dead-letter it.
 */
export const KafkaConsumer = (): ClassDecorator => applyDecorators(Controller(), UseFilters(RethrowRpcFilter));
