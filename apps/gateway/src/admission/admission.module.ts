import { Module } from '@nestjs/common';
import { AdmissionBaselineExchange } from './admission-baseline.exchange.js';
import { AdmissionGate } from './admission.gate.js';

/** Admission by the work in flight; DoorInterceptor runs the gate. */
@Module({ providers: [AdmissionGate, AdmissionBaselineExchange], exports: [AdmissionGate] })
export class AdmissionModule {}
