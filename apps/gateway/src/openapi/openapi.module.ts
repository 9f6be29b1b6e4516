import { Module } from '@nestjs/common';
import { OpenApiDocumentSource } from './openapi-document.source.js';
import { OpenApiController } from './openapi.controller.js';

@Module({ controllers: [OpenApiController], providers: [OpenApiDocumentSource], exports: [OpenApiDocumentSource] })
export class OpenApiModule {}
