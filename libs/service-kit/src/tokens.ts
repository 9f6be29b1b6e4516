/** Injection tokens shared by every service. */
export const LOGGER = Symbol('LOGGER');
export const SERVICE_INFO = Symbol('SERVICE_INFO');

export interface ServiceInfo {
  /** The service's name, also its Kafka client id and stage name. */
  name: string;
  instanceId: string;
}
