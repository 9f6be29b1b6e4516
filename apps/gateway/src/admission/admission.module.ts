import { Module } from '@nestjs/common';
import { AdmissionInterceptor } from './admission.interceptor.js';

/** Admission by the work in flight; main.ts installs the interceptor globally. */
@Module({ providers: [AdmissionInterceptor], exports: [AdmissionInterceptor] })
export class AdmissionModule {}
