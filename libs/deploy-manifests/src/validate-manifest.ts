import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';

interface Validatable {
  validate(): void;
}

/**
 * The kinds the manifests may use, each with its kubernetes-models class (the JSON schema of
 * the Kubernetes OpenAPI). A kind or apiVersion not listed here is an error, so a typo such as
 * `autoscaling/v1` with v2 fields cannot slip through unvalidated.
 */
const MODELS: Record<string, new (data: never) => Validatable> = {
  'apps/v1/Deployment': Deployment,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'batch/v1/Job': Job,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'v1/Service': Service,
};

/** The kustomize file is not a Kubernetes object: it is checked apart. */
export const KUSTOMIZATION = 'kustomize.config.k8s.io/v1beta1/Kustomization';

export function kindOf(doc: Record<string, unknown>): string {
  return `${String(doc['apiVersion'])}/${String(doc['kind'])}`;
}

/** Validates one object against the schema of its apiVersion and kind; throws with the schema errors. */
export function validateManifest(doc: Record<string, unknown>): void {
  const Model = MODELS[kindOf(doc)];
  if (!Model) throw new Error(`no schema for ${kindOf(doc)} (known: ${Object.keys(MODELS).join(', ')})`);
  new Model(doc as never).validate();
}
