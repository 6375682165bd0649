#!/usr/bin/python3
"""The report's layout in print, as Chromium lays it out (Debian's chromium, chromium-driver and python3-selenium):
opens the page headless through WebDriver, emulates print media at the printable width of the paper (A4 or
Letter, less the page's 12 mm margins), lists every element whose content is wider than its box or that reaches
past the page, then prints it to PDF on that paper and counts the pages. Prints one JSON object:
{"paper", "width", "overflow": [{"tag", "id", "text", "scrollWidth", "clientWidth", "right"}], "pages"}.

usage: report-layout.py PAGE.html [A4|Letter]
"""
import base64
import json
import re
import sys

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

PAPERS = {"A4": (210.0, 297.0), "Letter": (215.9, 279.4)}
MARGIN_MM = 12.0
PX_PER_MM = 96 / 25.4

page, paper = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else "A4")
width_mm, height_mm = PAPERS[paper]
printable = round((width_mm - 2 * MARGIN_MM) * PX_PER_MM)

options = webdriver.ChromeOptions()
for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-dev-shm-usage"]:
    options.add_argument(argument)
options.binary_location = "/usr/bin/chromium"
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
try:
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": printable, "height": 1200, "deviceScaleFactor": 1, "mobile": False})
    driver.get("file://" + page)
    overflow = driver.execute_script("""
        const limit = arguments[0];
        const found = [];
        for (const element of document.body.querySelectorAll('*')) {
          const style = getComputedStyle(element);
          if (style.display === 'none') continue;
          const box = element.getBoundingClientRect();
          const wide = element.scrollWidth > element.clientWidth + 1 && element.clientWidth > 0
                       && !['svg', 'g', 'path', 'text', 'polyline', 'line', 'rect', 'circle', 'tspan'].includes(element.tagName.toLowerCase());
          if (wide || box.right > limit + 1) {
            found.push({tag: element.tagName.toLowerCase(), id: element.id || '', text: (element.textContent || '').trim().slice(0, 60),
                        scrollWidth: element.scrollWidth, clientWidth: element.clientWidth, right: Math.round(box.right)});
          }
        }
        return found;
    """, printable)
    pdf = driver.execute_cdp_cmd("Page.printToPDF", {
        "paperWidth": width_mm / 25.4, "paperHeight": height_mm / 25.4, "preferCSSPageSize": False,
        "marginTop": MARGIN_MM / 25.4, "marginBottom": MARGIN_MM / 25.4, "marginLeft": MARGIN_MM / 25.4,
        "marginRight": MARGIN_MM / 25.4, "printBackground": True})
    data = base64.b64decode(pdf["data"])
    pages = len(re.findall(rb"/Type\s*/Page[^s]", data))
    print(json.dumps({"paper": paper, "width": printable, "overflow": overflow, "pages": pages}))
finally:
    driver.quit()
