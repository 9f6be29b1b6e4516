/** Injection tokens shared by every service. */
export const LOGGER = Symbol('LOGGER');
export const SERVICE_INFO = Symbol('SERVICE_INFO');

export interface ServiceInfo {
  /** The service's name, also its Kafka client id and stage name. */
  name: string;
  instanceId: string;
  /**
   * The replica's configured name (INSTANCE_ID), the same after a restart; absent when not
   * configured. Kafka consumers join their groups as static members under it.
   */
  replicaId?: string;
}
