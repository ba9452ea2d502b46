// The three browser engines through WebDriver (selenium-webdriver): Debian's
// Chromium through chromedriver, Firefox ESR through geckodriver (built from
// crates.io), WebKitGTK's MiniBrowser through WebKitWebDriver, under Xvfb
// (MiniBrowser's --headless hangs the session; see
// ../shared/design/toolchain.md). No browser is downloaded.
import { Builder } from "selenium-webdriver";
import chrome from "selenium-webdriver/chrome.js";
import firefox from "selenium-webdriver/firefox.js";
import { spawn } from "node:child_process";
import { createServer } from "node:net";

export const ENGINES = ["chromium", "firefox", "webkit"];

/**
 * Requests a browser makes on its own, whatever page is open: Firefox ESR
 * polls its remote settings (firefox.settings.services.mozilla.com) although
 * services.settings.server is overridden, which release builds ignore;
 * Chromium under chromedriver asks Google for the time, component updates
 * and accounts despite --disable-component-update and --disable-sync. They
 * are reported apart, by the vendor's own domains; the app's page and
 * worker could not reach them anyway (its Content-Security-Policy allows
 * connections to 'self' only), and tests/e2e/specs/privacy.test.mjs sees
 * every request of Chromium's page and worker themselves.
 */
export const BROWSER_OWN = {
  chromium: /^(CONNECT [a-z0-9.-]+|(GET|POST) https?:\/\/[a-z0-9.-]+)\.(google\.com|googleapis\.com|gstatic\.com)(:\d+|\/|$)/,
  firefox: /^(CONNECT [a-z0-9.-]+|GET https?:\/\/[a-z0-9.-]+)\.(mozilla\.(com|net|org)|firefox\.com)(:\d+|\/|$)/,
  webkit: null,
};
const MINIBROWSER = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser";

/** The W3C proxy capability: every request a browser sends through a proxy goes to `proxy`. */
const proxyCapability = (proxy) => ({ proxyType: "manual", httpProxy: proxy, sslProxy: proxy });

/**
 * A fresh session of `engine` (a fresh profile each time), its requests sent
 * through the proxy at `proxy` ("127.0.0.1:port") so that none can go
 * elsewhere unseen. `env` is added to the environment of the WebDriver
 * server, hence of the browser it starts (WebKit's JSC_* options reach its
 * web process this way; bench-engines.mjs).
 */
export async function startEngine(engine, proxy, env = {}) {
  if (engine === "chromium") {
    const options = new chrome.Options()
      .setChromeBinaryPath("/usr/bin/chromium")
      .addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        `--proxy-server=http://${proxy}`)
      .windowSize({ width: 1280, height: 800 });
    const service = new chrome.ServiceBuilder("/usr/bin/chromedriver").setEnvironment({ ...process.env, ...env });
    return { driver: await new Builder().forBrowser("chrome").setChromeOptions(options).setChromeService(service).build() };
  }
  if (engine === "firefox") {
    const options = new firefox.Options()
      .addArguments("-headless", "-width=1280", "-height=800")
      .setBinary(process.env.FIREFOX ?? "/usr/bin/firefox-esr")
      // None of Firefox's own traffic (remote settings, telemetry, captive
      // portal and connectivity checks, safe browsing): what reaches the
      // gate is the app's. 127.0.0.1 stays direct: hijacking it through the
      // proxy would make it an insecure context, without service workers.
      .setPreference("services.settings.server", "data:,#remote-settings-off")
      .setPreference("app.normandy.enabled", false)
      .setPreference("browser.region.network.url", "")
      .setPreference("geo.provider.network.url", "")
      .setPreference("captivedetect.canonicalURL", "")
      .setPreference("extensions.blocklist.enabled", false)
      .setPreference("browser.newtabpage.enabled", false)
      .setPreference("browser.startup.homepage_override.mstone", "ignore")
      .setPreference("toolkit.telemetry.server", "")
      .setPreference("browser.ping-centre.telemetry", false)
      .setPreference("app.update.enabled", false)
      .setPreference("browser.shell.checkDefaultBrowser", false)
      .setPreference("datareporting.policy.dataSubmissionEnabled", false)
      .setPreference("toolkit.telemetry.enabled", false)
      .setPreference("network.captive-portal-service.enabled", false)
      .setPreference("network.connectivity-service.enabled", false)
      .setPreference("browser.safebrowsing.malware.enabled", false)
      .setPreference("browser.safebrowsing.phishing.enabled", false)
      .setPreference("extensions.update.enabled", false)
      .setPreference("browser.search.update", false)
      .setProxy(proxyCapability(proxy));
    const service = new firefox.ServiceBuilder(process.env.GECKODRIVER ?? "geckodriver").setEnvironment({ ...process.env, ...env });
    return { driver: await new Builder().forBrowser("firefox").setFirefoxOptions(options).setFirefoxService(service).build() };
  }
  if (engine === "webkit") {
    const port = await freePort();
    const child = spawn(process.env.WEBKIT_WEBDRIVER ?? "WebKitWebDriver", [`--port=${port}`], { stdio: "ignore", env: { ...process.env, ...env } });
    await waitForPort(port);
    const driver = await new Builder()
      .usingServer(`http://127.0.0.1:${port}`)
      .withCapabilities({
        browserName: "MiniBrowser",
        proxy: proxyCapability(proxy),
        "webkitgtk:browserOptions": { binary: process.env.MINIBROWSER ?? MINIBROWSER, args: ["--automation"] },
      })
      .build();
    return { driver, stop: () => child.kill() };
  }
  throw new Error(`unknown engine ${engine}: one of ${ENGINES.join(", ")}`);
}

function freePort() {
  return new Promise((done) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => done(port));
    });
  });
}

async function waitForPort(port, timeout = 20_000) {
  const until = Date.now() + timeout;
  while (Date.now() < until) {
    const open = await fetch(`http://127.0.0.1:${port}/status`).then(() => true, () => false);
    if (open) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`WebKitWebDriver did not listen on ${port}`);
}
