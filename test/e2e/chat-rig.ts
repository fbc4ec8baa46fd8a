/** The app of the chat suites: server-everything added as "Everything", every tool deferred and none preloaded. */
import { DEFER_ALL_APP_CONFIG, saveKeyAndBaseUrl, startEverythingRig, type EverythingRig } from './app-page';
import { addServer } from './app-steps';

/** After the first run (`apiKey` saved) with Everything added: a tool reaches the model only when mentioned or searched. */
export async function startChatRig(apiKey: string): Promise<EverythingRig> {
  const rig = await startEverythingRig({ appConfig: DEFER_ALL_APP_CONFIG });
  try {
    await saveKeyAndBaseUrl(rig.page, apiKey, rig.api.url);
    await addServer(rig.page, 'Everything', rig.everything.url);
    return rig;
  } catch (error) {
    await rig.close();
    throw error;
  }
}
