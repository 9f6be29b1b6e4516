import { Global, Module } from '@nestjs/common';
import { QueryClient, QueryRepliesConsumer } from './query-client.js';

@Global()
@Module({ controllers: [QueryRepliesConsumer], providers: [QueryClient], exports: [QueryClient] })
export class MessagingModule {}
