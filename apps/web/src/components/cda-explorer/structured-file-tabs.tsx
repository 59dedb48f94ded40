import { useContext, type ReactNode } from 'react';
import { Tabs } from '@mantine/core';
import { SessionContext } from '../../app/session-context.ts';
import { CdaExplorer } from './cda-explorer.tsx';

export const CDA_VIEWER_FEATURE = 'IntakeCdaViewer';

/** XML structured files (a C-CDA/CCD is XML); HL7 v2 messages (.hl7) are not. */
export const isXmlFileName = (fileName: string) => /\.(xml|cda|ccd)$/i.test(fileName);

/**
 * An XML attachment's Preview (its text, as given) and, with the IntakeCdaViewer feature, the CDA
 * Explorer. Read without useSession so the viewer also renders outside a signed-in session (tests).
 */
export function StructuredFileTabs({ xml, fileName, preview }: { xml: string; fileName: string; preview: ReactNode }) {
  const explorer = useContext(SessionContext)?.features.has(CDA_VIEWER_FEATURE) ?? false;
  return (
    // The explorer mounts (and parses) only once its tab is opened.
    <Tabs defaultValue="preview" keepMounted={false}>
      <Tabs.List>
        <Tabs.Tab value="preview">Preview</Tabs.Tab>
        {explorer && <Tabs.Tab value="cda-explorer">CDA Explorer</Tabs.Tab>}
      </Tabs.List>
      <Tabs.Panel value="preview" pt="sm">
        {preview}
      </Tabs.Panel>
      {explorer && (
        <Tabs.Panel value="cda-explorer" pt="sm">
          <CdaExplorer xml={xml} fileName={fileName} />
        </Tabs.Panel>
      )}
    </Tabs>
  );
}
