#!/usr/bin/env python3
"""`warpsim explain`'s views (docs/explain.md), end to end through the CLI: the text, HTML and SVG
show the JSON's numbers; every SVG is well-formed XML and the HTML's tags balance; the HTML is
rendered once by a headless browser where one is installed (else this part is skipped).

Usage: views_test.py WARPSIM [BROWSER-CHECK]   (run from the repository root; exit 77 = skipped)
"""
import json
import shutil
import subprocess
import sys
import tempfile
import xml.dom.minidom
from html.parser import HTMLParser
from pathlib import Path

WARPSIM = sys.argv[1]
KERNEL = ["workloads/mtx_mul_vec/mtx_mul_vec.lineinfo.ptx", "--gpu", "rtx2080", "--grid", "16", "--block", "256",
          "--param", "0=4096", "--ptxas", "none"]
VOID = {"meta", "br", "img", "hr", "input", "link"}


def run(*args):
    done = subprocess.run([WARPSIM, "explain", *KERNEL, *args], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"warpsim explain {' '.join(args)} failed ({done.returncode}): {done.stderr}")
    return done.stdout


def percent(share):
    """api::percent: the share in percent with one decimal, shortest form."""
    text = "%.1f" % (round(share * 1000) / 10)
    return text.rstrip("0").rstrip(".") + "%"


class Balanced(HTMLParser):
    def __init__(self):
        super().__init__()
        self.open, self.text = [], []

    def handle_starttag(self, tag, attrs):
        if tag not in VOID:
            self.open.append(tag)

    def handle_endtag(self, tag):
        assert self.open and self.open[-1] == tag, f"</{tag}> closes <{self.open[-1] if self.open else None}>"
        self.open.pop()

    def handle_data(self, data):
        self.text.append(data)


def main():
    data = json.loads(run("--format", "json"))
    e = data["explain"]
    text = run()
    with tempfile.TemporaryDirectory() as tmp:
        html_path, charts = Path(tmp) / "report.html", Path(tmp) / "charts"
        assert run("-o", str(html_path), "--charts", str(charts)) == ""  # -o: nothing on stdout, format from .html
        html = html_path.read_text()
        svgs = {p.name: p.read_text() for p in sorted(charts.glob("*.svg"))}
        assert sorted(svgs) == ["occupancy_block_size.svg", "occupancy_registers.svg", "occupancy_shared_memory.svg",
                                "roofline.svg"], sorted(svgs)
        for name, svg in svgs.items():
            xml.dom.minidom.parseString(svg)  # raises on malformed XML
            assert svg.split("<svg", 1)[1] in html, f"{name} is not inline in the HTML"
        parser = Balanced()
        parser.feed(html)
        parser.close()
        assert parser.open == [], f"unclosed tags {parser.open}"
        page = "".join(parser.text)

        # The JSON's numbers in the text and the page.
        assert f"why: {e['sentence']}" in text and e["sentence"] in page
        assert e["findings"], "mtx_mul_vec's row per thread is uncoalesced: a finding"
        for f in e["findings"]:
            speedup = f"{f['speedup']:.2f}x"
            assert f"{speedup}  {f['kind']}: {f['message']}" in text, (f, text)
            assert speedup in page and f["message"] in page and f["change"] in page, f
        for r in e["speed_of_light"]:
            row = [line for line in text.split("speed of light", 1)[1].splitlines() if line.split()[:1] == [r["resource"]] and r["peak"] in line]
            assert row and percent(r["busy"]) in row[0].split(), (r, row)
            assert percent(r["busy"]) in page and r["peak"] in page
        waits_table = text.split("warps' time", 1)[1].split("hot PTX lines", 1)[0]
        for cause, w in e["waits"].items():
            row = [line for line in waits_table.splitlines() if line.split()[:1] == [cause]]
            assert row and row[0].split()[1] == percent(w["share"]), (cause, row)
        for h in e["hot_lines"]["ptx"][:10]:
            assert f"{h['file']}:{h['line']}" in text and f"{h['file']}:{h['line']}" in page
        top = e["hot_lines"]["source"][0]
        assert top["text"] and top["text"] in page and f"{top['file']}:{top['line']}" in text
        o = e["occupancy"]
        assert f"{o['active_warps_per_sm']} of {o['max_warps_per_sm']} warps ({percent(o['occupancy'])})" in text
        assert f"{o['active_warps_per_sm']} of {o['max_warps_per_sm']} warps ({percent(o['occupancy'])})" in page

        # One render by a headless browser, where there is one.
        browser = next((b for b in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
                        if shutil.which(b)), None)
        if browser is None:
            print("views_test: the views pass; no headless browser (chromium, google-chrome) to render the HTML: skipped")
            return 77
        done = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", html_path.as_uri()],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        assert e["sentence"] in done.stdout and "<svg" in done.stdout, "the rendered page lacks the report"
        assert "<h2>Findings</h2>" in done.stdout and e["findings"][0]["kind"] in done.stdout, "the rendered page lacks the findings"
    print("views_test: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
