"""PDF/X-1a:2003 through Ghostscript's ``pdfwrite``: CMYK, an output intent, fonts embedded, no transparency.

Ghostscript converts colours with its default CMYK profile, which is also the
profile embedded as the output intent (``default_cmyk.icc`` from Debian's
``libgs-common``: "Artifex CMYK SWOP Profile"). PDF/X-1a allows no
transparency, so Ghostscript rasterises any page that has some; WeasyPrint
wraps opaque drawings in transparency groups, which are dropped first from
every page that needs no transparency (``transparency.py``), so those pages
stay vector with real fonts and only the others are flattened.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pikepdf

from ..errors import UsageError
from ..render.facepdf import open_pdf, save_pdf_file
from ..render.subset_tags import retag_subsets
from .ink import gray_as_cmyk, limit_image_ink, limit_ink
from .profiles import Profile
from .transparency import PageTransparency, drop_opaque_groups

GS_TIMEOUT = 600


def ghostscript() -> str:
    """The Ghostscript executable (``CARDWORKS_GS`` overrides); UsageError when there is none."""
    wanted = os.environ.get("CARDWORKS_GS", "gs")
    found = shutil.which(wanted)
    if found is None:
        raise UsageError(f"Ghostscript ({wanted!r}) is needed for PDF/X and ink checks but was not found; "
                         "install it (Debian: apt-get install ghostscript)")
    return found


def _ps_string(text: str) -> str:
    return "(" + text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") + ")"


def _definitions(profile: Profile, title: str) -> str:
    colour = profile.colour.value
    return "\n".join([
        f"[ /GTS_PDFXVersion (PDF/X-1a:2003) /Title {_ps_string(title)} /Trapped /False /DOCINFO pdfmark",
        "[/_objdef {icc_PDFX} /type /stream /OBJ pdfmark",
        "[{icc_PDFX} << /N 4 >> /PUT pdfmark",
        f"[{{icc_PDFX}} {_ps_string(str(colour.icc))} (r) file /PUT pdfmark",
        "[/_objdef {OutputIntent_PDFX} /type /dict /OBJ pdfmark",
        "[{OutputIntent_PDFX} << /Type /OutputIntent /S /GTS_PDFX "
        f"/OutputCondition {_ps_string(colour.output_condition or '')} "
        f"/OutputConditionIdentifier {_ps_string(colour.output_condition_identifier or 'Custom')} "
        f"/Info {_ps_string(colour.icc_description or '')} /RegistryName (http://www.color.org) "
        "/DestOutputProfile {icc_PDFX} >> /PUT pdfmark",
        "[{Catalog} << /OutputIntents [ {OutputIntent_PDFX} ] >> /PUT pdfmark",
        "",
    ])


def to_pdfx(pdf: pikepdf.Pdf, profile: Profile, title: str, target: Path) -> list[PageTransparency]:
    """``pdf`` (RGB) saved into the file ``target`` as PDF/X-1a:2003 in the profile's CMYK, total ink limited to
    the profile's figure in colours set and in every pixel of every image. Each step goes through files in a
    scratch folder, so a deck of art is never in memory whole. Returns, per page, what in it needs transparency:
    those pages (only those) Ghostscript flattens into an image."""
    colour = profile.colour.value
    if colour.icc is None or not Path(colour.icc).is_file():
        raise UsageError(f"the ICC profile {colour.icc} of profile {profile.id!r} is missing; "
                         f"install Debian's {colour.icc_package or 'ghostscript'} package")
    gs = ghostscript()
    with tempfile.TemporaryDirectory(prefix="cardworks-pdfx-") as tmp:
        folder = Path(tmp)
        save_pdf_file(pdf, folder / "rgb.pdf")  # the bytes ``save_pdf`` gives, as before the conversion
        with open_pdf(folder / "rgb.pdf") as source:
            pages = drop_opaque_groups(source)
            source.save(folder / "in.pdf")
        (folder / "pdfx.ps").write_text(_definitions(profile, title), encoding="latin-1", errors="replace")
        command = [gs, "-q", "-dBATCH", "-dNOPAUSE", "-dSAFER", f"--permit-file-read={Path(colour.icc).parent}/",
                   "-dPDFX=true", "-dCompatibilityLevel=1.4", "-sDEVICE=pdfwrite", "-sColorConversionStrategy=CMYK",
                   "-dEmbedAllFonts=true",
                   "-dAutoFilterColorImages=false", "-sColorImageFilter=FlateEncode",  # lossless: ink is limited per pixel
                   # pages flattened at Ghostscript's 720 dpi would be 4 MB each, stored lossless: 400 dpi keeps
                   # every image over the 300 dpi preflight wants
                   "-dDownsampleColorImages=true", "-dColorImageResolution=400", "-dColorImageDownsampleThreshold=1.1",
                   "-sColorImageDownsampleType=Bicubic",
                   f"-sOutputFile={folder / 'out.pdf'}", str(folder / "pdfx.ps"), str(folder / "in.pdf")]
        run = subprocess.run(command, capture_output=True, text=True, timeout=GS_TIMEOUT)
        if run.returncode != 0 or not (folder / "out.pdf").is_file():
            raise UsageError(f"Ghostscript failed ({run.returncode}): {(run.stderr or run.stdout).strip()[:500]}")
        with open_pdf(folder / "out.pdf") as out:
            gray_as_cmyk(out)
            if profile.max_ink_percent.value is not None:
                limit_ink(out, profile.max_ink_percent.value / 100)
                limit_image_ink(out, profile.max_ink_percent.value / 100)
            retag_subsets(out)  # Ghostscript re-subsets fonts per page and may reuse a tag
            out.save(target, compress_streams=True, deterministic_id=True)
    return pages
