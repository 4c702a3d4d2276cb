# What the pvbatch scripts of the ParaView tests share: a check that prints its verdict and is
# counted, and the image data a reader produced.
from paraview import servermanager

failures = []


def check(condition, message):
    print(("ok      " if condition else "FAILED  ") + message)
    if not condition:
        failures.append(message)


def image_of(source):
    """The vtkImageData that ParaView produced, unwrapped from a multiblock if a reader made one."""
    data = servermanager.Fetch(source)
    while data is not None and data.IsA("vtkMultiBlockDataSet"):
        data = data.GetBlock(0)
    return data
