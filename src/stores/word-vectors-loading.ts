import { logFailure, type Logger } from '../domain/logger';
import type { ToolIndex } from '../search/tool-index';
import type { WordVectors } from '../search/word-vectors';

/**
 * Gives the tool index its word vectors once they have loaded (a few MB, after start-up); until then, and if they
 * cannot load, search ranks by words alone and the failure goes to the logger.
 */
export function attachWordVectors(
  index: Pick<ToolIndex, 'setWordVectors'>,
  load: (() => Promise<WordVectors>) | undefined,
  logger: Logger,
): Promise<void> {
  if (!load) return Promise.resolve();
  return load()
    .then((vectors) => {
      index.setWordVectors(vectors);
      logger.debug("Tool search's word vectors loaded", { words: vectors.size, dimensions: vectors.dimensions });
    })
    .catch(logFailure(logger, 'Loading the word vectors of tool search failed; it ranks by words alone'));
}
