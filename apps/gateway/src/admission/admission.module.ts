import { Module } from '@nestjs/common';
import { AdmissionGate } from './admission.gate.js';

/** Admission by the work in flight; DoorInterceptor runs the gate. */
@Module({ providers: [AdmissionGate], exports: [AdmissionGate] })
export class AdmissionModule {}
