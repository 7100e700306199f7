// h3sprite: show what each of our nodes reports (its "text" UI output: Snap Length's frame
// count, Green Screen Prep's placement, the loop grade and QC flags of Loop Window and
// Sprite Sheet) as a read-only text box on the node, as ComfyUI shows a preview image.
// The box is not saved with the workflow and never sent to the server.
import { app } from "../../scripts/app.js";

const WIDGET = "h3sprite_result";

function showText(node, lines, withImage) {
  let widget = node.widgets?.find((w) => w.name === WIDGET);
  if (!widget) {
    const el = document.createElement("textarea");
    el.readOnly = true;
    el.className = "comfy-multiline-input h3sprite-result";
    el.style.cssText = "opacity:0.9;font-size:12px;resize:none;";
    widget = node.addDOMWidget(WIDGET, "h3sprite_text", el, {
      serialize: false,
      getValue: () => el.value,
      setValue: (v) => { el.value = v; },
    });
    widget.serialize = false; // not in widgets_values: the saved graph stays as it was
    widget.element = el;
  }
  widget.element.value = lines.join("\n");
  const rows = Math.min(6, widget.element.value.split("\n").length + 1);
  widget.computeSize = (width) => [width, 18 * rows + 8];
  // Grow only (never hide a preview): room for the text, and below it for the image.
  const min = node.computeSize();
  node.setSize([Math.max(node.size[0], min[0]),
                Math.max(node.size[1], min[1] + (withImage ? 260 : 0))]);
  node.setDirtyCanvas(true, true);
}

app.registerExtension({
  name: "h3sprite.ShowResults",
  async beforeRegisterNodeDef(nodeType, nodeData) {
    if (!nodeData.name.startsWith("H3Sprite_")) return;
    const onExecuted = nodeType.prototype.onExecuted;
    nodeType.prototype.onExecuted = function (message) {
      onExecuted?.apply(this, arguments);
      const text = message?.text;
      if (text?.length) showText(this, Array.from(text, String), !!message.images?.length);
    };
  },
});
