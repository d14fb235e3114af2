"""Regional standards a locale can follow (a glossary's ``standard``): the forms each prefers and avoids.

The games' Catalan text is Valencian: the Fallera rulebook and cards write the forms of the Acadèmia Valenciana
de la Llengua (AVL), and a translation that mixes in Central forms (``seves``, ``aquest``, ``comparteixes``)
reads as two dialects at once. Most forms avoided here are ones the AVL's standard does not admit (``seves``,
``aquest``, ``comparteixes``, the ``-i`` subjunctive, ``cinquè``); a few are admitted variants these texts leave
out so that they speak with one voice (``meitat``, ``sota``, ``dos`` before a feminine noun). None is a word of
its own in Valencian, so a warning is always worth reading.
"""

from __future__ import annotations

from ..models.translations import GlossaryTerm


def _form(term: str, translation: str, forbidden: list[str], note: str) -> GlossaryTerm:
    return GlossaryTerm(term=term, translation=translation, forbidden=forbidden, note=note)


VALENCIAN: tuple[GlossaryTerm, ...] = (
    _form("possessives (his/her/its, your, my)", "seua, seues, teua, teues, meua, meues",
          ["seva", "seves", "teva", "teves", "meva", "meves"], "Valencian possessives keep the -u- forms."),
    _form("this, these", "este, esta, estos, estes",
          ["aquest", "aquesta", "aquests", "aquestes"], "Valencian near demonstratives; aquell stays."),
    _form("that (middle distance)", "eixe, eixa, eixos, eixes",
          ["aqueix", "aqueixa", "aqueixos", "aqueixes"], "Valencian middle demonstratives."),
    _form("inchoative verbs (shares, adds, follows…)", "compartix, afig, seguix, invertix, imprimix…",
          ["afegeix*", "segueix*", "comparteix*", "inverteix*", "imprimeix*", "serveix*", "llegeix*",
           "reparteix*", "decideix*", "substitueix*", "divideix*", "ofereix*", "prefereix*", "construeix*",
           "distribueix*", "reuneix*", "aconsegueix*", "elegeix*", "obeeix*", "pateix*", "converteix*",
           "produeix*", "redueix*", "introdueix*", "descobreix*", "cobreix*"],
          "Valencian inchoative verbs take -ix- (compartixes, invertixen, seguix; afegir gives afig)."),
    _form("present subjunctive (be, can, have…)", "siga, puga, tinga, haja, faça, vullga, jugue",
          ["sigui*", "pugui*", "tingui*", "hagi", "hagis", "hagin", "faci", "facis", "facin", "vulgui*",
           "jugui*"], "Valencian present subjunctive ends in -a/-e, not -i."),
    _form("half", "mitat", ["meitat*"], "One word for half throughout: mitat (meitat is admitted, not used)."),
    _form("under, below", "davall", ["sota"], "The Valencian texts write davall (davall de); sota is not used."),
    _form("two (feminine)", "dues",
          ["les dos", "totes dos", "dos cartes", "dos cares", "dos vegades", "dos caselles", "dos files", "dos fitxes",
           "dos rajoles", "dos voreres", "dos columnes", "dos accions", "dos piles", "dos rondes", "dos fases",
           "dos persones", "dos fileres", "dos monedes", "dos fotos", "dos bonificacions", "dos recompenses",
           "dos icones", "dos publicacions", "dos bèsties", "dos zones", "dos terretes", "dos mitats"],
          "Two is dues before a feminine noun in writing (les dues cartes, dues vegades)."),
    _form("ordinals (fifth, sixth…)", "cinqué, sisé, seté, vuité, nové, desé",
          ["cinquè", "sisè", "setè", "vuitè", "novè", "desè"], "Valencian ordinals take a closed é."),
)
"""The Valencian (AVL) forms, as glossary terms: what to write, and the Central forms to avoid."""

STANDARDS: dict[str, tuple[GlossaryTerm, ...]] = {"valencian": VALENCIAN}
"""Every standard a glossary may name, by the name it uses."""
