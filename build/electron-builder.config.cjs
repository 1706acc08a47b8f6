// electron-builder configuration (validated offline in npm test). Signing
// and notarization come from the environment only: CSC_LINK /
// CSC_KEY_PASSWORD (macOS and Windows certificates), APPLE_API_KEY,
// APPLE_API_KEY_ID, APPLE_API_ISSUER (notarization), WIN_CSC_LINK
// (Windows). Without them the builds are unsigned, which docs/release.md
// says is only for local testing. Fuses are flipped after packing.

const notarize = Boolean(process.env.APPLE_API_KEY && process.env.APPLE_API_KEY_ID && process.env.APPLE_API_ISSUER);

/** @type {import('electron-builder').Configuration} */
module.exports = {
  appId: 'dev.switchboard.app',
  productName: 'Switchboard',
  copyright: 'Copyright © Switchboard contributors',
  directories: { output: 'dist/release', buildResources: 'build' },
  // Everything runs from bundles: no node_modules, sources, tests, benches or maps in the package.
  files: ['package.json', 'dist/electron/**', 'dist/renderer/**', 'dist/cli/**', '!**/*.map', '!node_modules/**'],
  // The CLI is run by the system's Node through the launcher Preferences installs.
  asarUnpack: ['dist/cli/**'],
  asar: true,
  npmRebuild: false,
  nodeGypRebuild: false,
  electronFuses: {
    runAsNode: false,
    enableCookieEncryption: true,
    enableNodeOptionsEnvironmentVariable: false,
    enableNodeCliInspectArguments: false,
    enableEmbeddedAsarIntegrityValidation: true,
    onlyLoadAppFromAsar: true,
    grantFileProtocolExtraPrivileges: false,
    loadBrowserProcessSpecificV8Snapshot: false,
  },
  mac: {
    category: 'public.app-category.developer-tools',
    target: ['dmg', 'zip'],
    hardenedRuntime: true,
    gatekeeperAssess: false,
    entitlements: 'build/entitlements.mac.plist',
    entitlementsInherit: 'build/entitlements.mac.plist',
    notarize,
    icon: 'build/icons/icon.png',
    extendInfo: { LSUIElement: true },
  },
  win: {
    target: ['nsis'],
    icon: 'build/icons/icon.png',
    // Signing: WIN_CSC_LINK / WIN_CSC_KEY_PASSWORD, or a signtool certificate named here by environment.
    signtoolOptions: process.env.WIN_CERT_SUBJECT
      ? {
          certificateSubjectName: process.env.WIN_CERT_SUBJECT,
          signingHashAlgorithms: ['sha256'],
          rfc3161TimeStampServer: 'http://timestamp.digicert.com',
        }
      : undefined,
  },
  nsis: { oneClick: false, perMachine: false, allowToChangeInstallationDirectory: true },
  linux: {
    target: ['AppImage', 'deb'],
    category: 'Development',
    icon: 'build/icons/icon.png',
    maintainer: 'Switchboard contributors <switchboard@users.noreply.github.com>',
  },
  deb: { depends: ['libnotify4', 'libxtst6', 'libnss3'] },
};
