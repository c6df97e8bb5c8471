/** The registry/model-file name of the learned AirDialogue models (light: the agent family checks a file's header with it before loading the models' code). */
export const LEARNED_MODEL_NAME = 'airdialogue-seq2seq';
